import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("CurlTransport against the origin simulator")
struct CurlTransportTests {
    @Test("a GET returns status, headers and the exact body")
    func wholeBody() async throws {
        let harness = try TransportHarness()
        let (head, body) = try await harness.fetch("/small.bin")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "10000")
        #expect(head.servedRange == .whole)
        #expect(body == TransportHarness.small)
    }

    @Test("a header value with a line break, or a name that is not a token, is refused before anything is sent")
    func headerInjection() async throws {
        let harness = try TransportHarness()
        for bad: HTTPHeaders in [["X-A": "1\r\nX-Injected: 2"], ["X-A": "1\nX-B: 2"], ["Bad Name": "1"]] {
            let error = await harness.failure("/small.bin") { $0.headers = bad }
            #expect(error?.code == .badHeader)
        }
    }

    @Test("a 4 MiB body streamed through small watermarks arrives intact (pause/unpause backpressure)")
    func backpressure() async throws {
        let harness = try TransportHarness()
        let response = try await harness.transport.send(harness.request("/big.bin") {
            $0.limits.bufferHighWatermark = 32 << 10
            $0.limits.bufferLowWatermark = 8 << 10
        })
        var received: [UInt8] = []
        var chunks = 0
        for try await chunk in response.body {
            received.append(contentsOf: chunk)
            chunks += 1
            if chunks % 16 == 0 { await Task.yield() }
        }
        #expect(received == TransportHarness.big)
    }

    @Test("eight concurrent transfers on one engine all arrive intact")
    func concurrent() async throws {
        let harness = try TransportHarness()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { try await harness.fetch("/big.bin").1 == TransportHarness.big }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test("a range request gets 206 whose Content-Range matches, and exactly those bytes")
    func range() async throws {
        let harness = try TransportHarness()
        let (head, body) = try await harness.fetch("/small.bin") { $0.byteRange = ByteRange(offset: 100, length: 500) }
        #expect(head.status == 206)
        #expect(head.servedRange == .partial(ContentRange(headerValue: "bytes 100-599/10000")!))
        #expect(body == Array(TransportHarness.small[100..<600]))
        #expect(harness.origin.log.last?.range == "bytes=100-599")
    }

    @Test("an open-ended range returns the rest of the resource")
    func openRange() async throws {
        let harness = try TransportHarness()
        let (_, body) = try await harness.fetch("/small.bin") { $0.byteRange = ByteRange(offset: 9_000, length: nil) }
        #expect(body == Array(TransportHarness.small[9_000...]))
    }

    @Test("a 200 to a range request is trimmed to the range when emulation is allowed")
    func rangeIgnoredEmulated() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.ignoreRange, path: "/big.bin")
        let range = ByteRange(offset: 1_000_000, length: 70_000)
        let (head, body) = try await harness.fetch("/big.bin") { $0.byteRange = range }
        #expect(head.status == 200)
        #expect(head.servedRange == .emulated(range))
        #expect(body == Array(TransportHarness.big[1_000_000..<1_070_000]))
    }

    @Test("a 200 to a range request fails with range-not-honoured when emulation is refused")
    func rangeIgnoredRefused() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.ignoreRange, path: "/small.bin")
        let error = await harness.failure("/small.bin") {
            $0.byteRange = ByteRange(offset: 10, length: 10)
            $0.rangeFallback = .refuse
        }
        #expect(error?.code == .rangeNotHonoured)
        #expect(error?.category == .protocol)
    }

    @Test("an unsatisfiable range is a 416 response, not a transport error")
    func unsatisfiable() async throws {
        let harness = try TransportHarness()
        let (head, _) = try await harness.fetch("/small.bin") { $0.byteRange = ByteRange(offset: 20_000, length: 10) }
        #expect(head.status == 416)
        #expect(head.headers["Content-Range"] == "bytes */10000")
    }

    @Test("status codes such as 404 and 503 with Retry-After are responses, not errors")
    func statuses() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.status(503, ["Retry-After": "7"]), path: "/small.bin", attempts: 1...1)
        let (first, _) = try await harness.fetch("/small.bin")
        #expect(first.status == 503)
        #expect(first.headers["retry-after"] == "7")
        let (second, body) = try await harness.fetch("/small.bin")
        #expect(second.status == 200 && body == TransportHarness.small)
        let (missing, _) = try await harness.fetch("/nothing-here")
        #expect(missing.status == 404)
        #expect(harness.origin.attempts("/small.bin") == 2)
    }

    @Test("HEAD returns the headers and no body")
    func head() async throws {
        let harness = try TransportHarness()
        let (head, body) = try await harness.fetch("/small.bin") { $0.method = .head }
        #expect(head.status == 200)
        #expect(head.headers["Content-Length"] == "10000")
        #expect(body.isEmpty)
    }

    @Test("HEAD of a resource larger than the body limit succeeds: no body follows")
    func headOverLimit() async throws {
        let harness = try TransportHarness()
        let (head, _) = try await harness.fetch("/big.bin") {
            $0.method = .head
            $0.limits.maximumBodyBytes = 1000
        }
        #expect(head.status == 200 && head.headers["Content-Length"] == "\(4 << 20)")
    }

    @Test("a body cut short after the head fails with connection-lost")
    func truncated() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.truncate(afterBytes: 3_000), path: "/small.bin")
        let error = await harness.failure("/small.bin")
        #expect(error?.category == .connectionLost)
    }

    @Test("a connection closed without a reply fails with connection-lost")
    func dropped() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.dropConnection, path: "/small.bin")
        let error = await harness.failure("/small.bin")
        #expect(error?.category == .connectionLost)
    }

    @Test("a delayed response still arrives when it beats the time-to-first-byte limit")
    func delayed() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.delay(.milliseconds(50)), path: "/small.bin")
        let (head, body) = try await harness.fetch("/small.bin")
        #expect(head.status == 200 && body == TransportHarness.small)
    }

    @Test("the time-to-first-byte deadline runs on the transport's clock: a manual clock moved past it ends the request")
    func firstByteTimeoutOnInjectedClock() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.hang, path: "/small.bin")
        let clock = ManualClock()
        let transport = try CurlTransport(configuration: CurlTransport.loopbackConfiguration, clock: clock)
        defer { transport.shutdown() }
        let request = harness.request("/small.bin") { $0.limits.timeToFirstByte = .seconds(30) }
        let sent = Task { () async -> HTTPError? in
            do throws(HTTPError) { _ = try await transport.send(request); return nil } catch { return error }
        }
        while harness.origin.attempts("/small.bin") == 0 { await Task.yield() }
        clock.advance(by: .seconds(31))
        let error = await sent.value
        #expect(error?.code == .firstByteTimeout, "\(String(describing: error))")
    }

    @Test("no response head within the time-to-first-byte limit fails with first-byte-timeout")
    func firstByteTimeout() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.hang, path: "/small.bin")
        let error = await harness.failure("/small.bin") { $0.limits.timeToFirstByte = .milliseconds(200) }
        #expect(error?.category == .timeout)
        #expect(error?.code == .firstByteTimeout)
    }

    @Test("a body that stalls mid-transfer fails with a low-speed timeout")
    func lowSpeedTimeout() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.stall(afterBytes: 2_000), path: "/small.bin")
        let error = await harness.failure("/small.bin") {
            $0.limits.lowSpeedBytesPerSecond = 100
            $0.limits.lowSpeedWindow = .seconds(1)
        }
        #expect(error?.category == .timeout)
        #expect(error?.code == .transferTimeout)
    }

    @Test("a connect that cannot complete fails with connect-timeout")
    func connectTimeout() async throws {
        let listener = try SaturatedListener()
        let transport = try CurlTransport.loopback()
        var request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/x")!)
        request.limits.connectTimeout = .milliseconds(300)
        do {
            _ = try await transport.send(request)
            Issue.record("expected a timeout")
        } catch {
            #expect(error.category == .timeout)
            #expect(error.code == .connectTimeout)
        }
        withExtendedLifetime(listener) {}
    }

    @Test("a refused connection fails with the connect category")
    func refused() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        defer { withExtendedLifetime(refusing) {} }
        let transport = try CurlTransport.loopback()
        do {
            _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/x")!))
            Issue.record("expected a connect failure")
        } catch {
            #expect(error.category == .connect)
            #expect(error.message.contains("127.0.0.1:\(port)/x"))
        }
    }

    @Test("an announced body over the size limit fails before any byte is buffered")
    func announcedTooLarge() async throws {
        let harness = try TransportHarness()
        let error = await harness.failure("/big.bin") { $0.limits.maximumBodyBytes = 1 << 20 }
        #expect(error?.category == .tooLarge)
    }

    @Test("a body of unannounced length is counted as it arrives and stopped past the limit")
    func unannouncedTooLarge() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.unannouncedLength, path: "/big.bin")
        let error = await harness.failure("/big.bin") { $0.limits.maximumBodyBytes = 1 << 20 }
        #expect(error?.category == .tooLarge)
        #expect(error?.code == .bodyTooLarge)
    }

    @Test("a body of unannounced length within the limit arrives intact")
    func unannouncedWithinLimit() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.unannouncedLength, path: "/big.bin")
        let (head, body) = try await harness.fetch("/big.bin")
        #expect(head.headers["Content-Length"] == nil)
        #expect(body == TransportHarness.big)
    }

    @Test("collect(upTo:) stops a body past its limit with too-large")
    func collectLimit() async throws {
        let harness = try TransportHarness()
        let response = try await harness.transport.send(harness.request("/big.bin"))
        do {
            _ = try await response.body.collect(upTo: 100_000)
            Issue.record("expected too-large")
        } catch {
            #expect(error.category == .tooLarge)
        }
    }

    @Test("cancelling the task mid-body ends the transfer with cancelled, and the engine keeps working")
    func cancelMidBody() async throws {
        let harness = try TransportHarness()
        let started = AsyncStream<Void>.makeStream()
        let task = Task { () async throws(HTTPError) -> Int in
            let response = try await harness.transport.send(harness.request("/big.bin") {
                $0.limits.bufferHighWatermark = 16 << 10
            })
            var count = 0
            for try await chunk in response.body {
                count += chunk.count
                started.continuation.yield()
            }
            return count
        }
        for await _ in started.stream { break }
        task.cancel()
        let result = await task.result
        switch result {
        case .success(let count): Issue.record("transfer completed with \(count) bytes despite cancellation")
        case .failure(let error): #expect((error as? HTTPError)?.category == .cancelled)
        }
        let (_, body) = try await harness.fetch("/small.bin")
        #expect(body == TransportHarness.small)
    }

    @Test("cancelling while waiting for the head ends the request with cancelled")
    func cancelBeforeHead() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.hang, path: "/small.bin")
        let task = Task { () async throws(HTTPError) -> Int in
            try await harness.transport.send(harness.request("/small.bin")).head.status
        }
        while harness.origin.attempts("/small.bin") == 0 { await Task.yield() }
        task.cancel()
        if case .failure(let error) = await task.result {
            #expect((error as? HTTPError)?.category == .cancelled)
        } else {
            Issue.record("expected cancellation")
        }
    }

    @Test("only http and https URLs are fetched")
    func schemes() async throws {
        let harness = try TransportHarness()
        do {
            _ = try await harness.transport.send(HTTPRequest(url: URL(string: "ftp://127.0.0.1/x")!))
            Issue.record("expected refusal")
        } catch {
            #expect(error.category == .invalidRequest)
            #expect(error.code == .unsupportedScheme)
        }
    }

    @Test("query strings and user-info never appear in error messages")
    func redaction() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        defer { withExtendedLifetime(refusing) {} }
        let transport = try CurlTransport.loopback()
        do {
            _ = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/x?token=SECRET")!))
        } catch {
            #expect(!error.message.contains("SECRET"))
            #expect(error.message.contains("?<redacted>"))
        }
    }

    @Test("a request sent after shutdown fails with transport-shut-down")
    func afterShutdown() async throws {
        let harness = try TransportHarness()
        harness.transport.shutdown()
        let error = await harness.failure("/small.bin")
        #expect(error?.code == .transportShutDown)
    }
}
