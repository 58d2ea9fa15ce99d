import Foundation
import Testing
import TesseraHTTP
import TesseraPlayback
import TesseraTestSupport

/// Parks every request and hands the handles to the test.
final class ParkingResponder: HTTPResponder, Sendable {
    let parked = AsyncStream<ParkedRequest>.makeStream(bufferingPolicy: .bufferingNewest(16))
    let expiry: Duration

    init(expiry: Duration = .seconds(30)) { self.expiry = expiry }

    func reply(to request: ServerRequest) -> ServerReply {
        let continuation = parked.continuation
        return .park(expiry: expiry) { continuation.yield($0) }
    }
}

@Suite("Parked requests")
struct ParkedRequestTests {
    @Test("a parked request is answered later from another task, with ranges applied")
    func completeLater() async throws {
        let responder = ParkingResponder()
        let server = try LoopbackServer(responder: responder)
        defer { server.shutdown() }
        let client = Task { try await RawHTTPClient.exchangeOffPool(port: server.port,
                                       "GET /live.m3u8?_HLS_msn=5 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-3\r\nConnection: close\r\n\r\n")
        }
        for await parked in responder.parked.stream {
            #expect(!parked.isCompleted)
            parked.complete(ServerResponse(status: 200, body: .bytes(Array("#EXTM3U\n".utf8))))
            #expect(parked.isCompleted)
            break
        }
        let reply = try await client.value
        #expect(reply.status == 206)
        #expect(String(decoding: reply.body, as: UTF8.self) == "#EXT")
    }

    @Test("an unanswered parked request gets 503 at its expiry")
    func expiry() async throws {
        var configuration = LoopbackServer.Configuration()
        configuration.sweepInterval = .milliseconds(20)
        let server = try LoopbackServer(configuration: configuration, responder: ParkingResponder(expiry: .milliseconds(100)))
        defer { server.shutdown() }
        let reply = try await Task { try await RawHTTPClient.exchangeOffPool(port: server.port, "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }.value
        #expect(reply.status == 503)
    }

    @Test("shutdown answers every parked request with 503 instead of aborting")
    func shutdownWithParked() async throws {
        let responder = ParkingResponder()
        let server = try LoopbackServer(responder: responder)
        let clients = (0..<3).map { _ in
            Task { try await RawHTTPClient.exchangeOffPool(port: server.port, "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            }
        }
        var count = 0
        for await _ in responder.parked.stream {
            count += 1
            if count == 3 { break }
        }
        server.shutdown()
        for client in clients {
            let reply = try await client.value
            #expect(reply.status == 503, "\(String(decoding: reply.raw, as: UTF8.self))")
        }
    }

    @Test("completing twice, or after shutdown, is harmless")
    func completeTwice() async throws {
        let responder = ParkingResponder()
        let server = try LoopbackServer(responder: responder)
        let client = Task { try await RawHTTPClient.exchangeOffPool(port: server.port, "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        var handle: ParkedRequest?
        for await parked in responder.parked.stream {
            handle = parked
            break
        }
        handle?.complete(.status(204))
        handle?.complete(.status(500))
        let twice = try await client.value
        #expect(twice.status == 204, "\(String(decoding: twice.raw, as: UTF8.self))")
        server.shutdown()
        handle?.complete(.status(500))
    }
}
