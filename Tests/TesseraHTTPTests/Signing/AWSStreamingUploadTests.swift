#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TesseraHTTP
import TesseraHTTPTesting
import TesseraSupport
import TesseraTestSupport

@Suite("AWS Signature V4: streaming signatures of files and streams, encoded and signed chunk by chunk as they are sent")
struct AWSStreamingUploadTests {
    private struct Put: Endpoint {
        typealias Response = Echo
        var method: HTTPMethod { .put }
        var path = "bucket/object.bin"
        var headers: HTTPHeaders { ["Idempotency-Key": "k1"] }   // a retried upload is the same one
        var body: RequestContent?
    }

    private let signer = AWSSignatureV4(credentials: AWSCredentials(accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                        region: "us-east-1", service: "s3")
    /// 2013-05-24 00:00:00 UTC, the date of AWS's published example.
    private let date = Date(timeIntervalSince1970: 1_369_353_600)

    private func example(_ body: HTTPRequestBody) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: "https://s3.amazonaws.com/examplebucket/chunkObject.txt")!)
        request.method = .put
        request.headers.set("x-amz-storage-class", "REDUCED_REDUNDANCY")
        request.body = body
        return request
    }

    private func streamingSigner(chunkBytes: Int) -> AWSSignatureV4 {
        var streaming = signer
        streaming.payload = .streaming(chunkBytes: chunkBytes)
        return streaming
    }

    @Test("the published 66,560-byte example from a file: the headers and bytes of the body in memory, the same at every reading")
    func fileMatchesMemory() throws {
        let tree = try TemporaryDirectory()
        let payload = [UInt8](repeating: 0x61, count: 66_560)
        let file = try tree.write("chunkObject.txt", payload)
        var inMemory = example(.bytes(payload))
        try signer.signStreaming(&inMemory, at: date, chunkBytes: 65_536)
        var fromFile = example(.file(file))
        try signer.signStreaming(&fromFile, at: date, chunkBytes: 65_536)
        #expect(fromFile.headers == inMemory.headers)
        #expect(fromFile.headers["Authorization"]?.hasSuffix("Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9") == true)
        let expected = try #require(inMemory.body).readAll()
        let body = try #require(fromFile.body)
        #expect(try body.readAll() == expected)
        #expect(try body.readAll(pieceBytes: 70_000) == expected)
        guard case .stream(let stream) = body else { Issue.record("the file body is not streamed"); return }
        #expect(stream.length == 66_824 && expected.count == 66_824)
    }

    @Test("a file whose size changes after signing fails its reading with a typed error: shrunk before, shrunk during, grown during")
    func fileChanges() throws {
        let tree = try TemporaryDirectory()
        let original = TemporaryDirectory.pattern(count: 40_000, seed: 3)
        let file = try tree.write("object.bin", original)
        var signed = example(.file(file))
        try signer.signStreaming(&signed, at: date, chunkBytes: 8192)
        guard case .stream(let stream)? = signed.body else { Issue.record("the file body is not streamed"); return }
        func changed(_ error: HTTPError?) -> Bool {
            error?.stage == .file && error?.code == .uploadUnreadable && error?.message.contains("changed while it was being sent") == true
        }

        let shrinking = try stream.makeReader()
        _ = try Self.read(shrinking, bytes: 100)
        #expect(truncate(file.path, 10_000) == 0)
        #expect(changed(#expect(throws: HTTPError.self) { _ = try Self.read(shrinking, bytes: .max) }))
        #expect(changed(#expect(throws: HTTPError.self) { _ = try stream.makeReader() }))

        _ = try tree.write("object.bin", original)
        let growing = try stream.makeReader()
        _ = try Self.read(growing, bytes: 100)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        #expect(changed(#expect(throws: HTTPError.self) { _ = try Self.read(growing, bytes: .max) }))
    }

    @Test("through libcurl: an aws-chunked file upload signed by the interceptor; a 503 retried sends the same encoding again; every chunk's signature verifies")
    func uploadThroughCurl() async throws {
        let counter = Lock(0)
        let harness = try ClientHarness { request in
            counter.withLock { $0 += 1; return $0 } == 1 ? ScriptedServer.Reply(503) : .json(Echo(request).json)
        }
        let tree = try TemporaryDirectory()
        let payload = TemporaryDirectory.pattern(count: 100_000, seed: 5)
        let file = try tree.write("object.bin", payload)
        let date = self.date
        let client = try harness.client { $0.pipeline.interceptors = [AWSSignatureV4Interceptor(streamingSigner(chunkBytes: 8192), now: { date })] }
        let echo = try await client.send(Put(body: RequestContent(contentType: "application/octet-stream") { () throws(HTTPError) in .file(file) }))
        let bodies = harness.server.log.map(\.body)
        #expect(bodies.count == 2 && bodies[0] == bodies[1] && echo.body == bodies[1])
        #expect(echo.header("Content-Encoding") == ["aws-chunked"] && echo.header("X-Amz-Decoded-Content-Length") == ["100000"])
        #expect(echo.header("X-Amz-Content-SHA256") == [AWSSignatureV4.streamingPayload])
        let authorization = try #require(echo.header("Authorization").first)
        let seed = String(try #require(authorization.split(separator: "Signature=").last))
        let chunks = try Self.chunks(echo.body)
        #expect(chunks.map(\.data.count) == Array(repeating: 8192, count: 12) + [1696, 0])
        #expect(chunks.flatMap(\.data) == payload)
        let stamp = "20130524T000000Z"
        var chain = AWSChunkSigner(key: signer.signingKey(day: "20130524"), stamp: stamp, scope: signer.scope(stamp), seed: seed)
        for chunk in chunks {
            #expect(chunk.data.withUnsafeBytes { chain.header(for: $0) } == chunk.header)
        }
    }

    @Test("a clock skew refusal of a streaming upload signs the original body again: aws-chunked once, the decoded bytes the body's")
    func skewResignsOriginal() async throws {
        let base = URL(string: "https://examplebucket.s3.us-east-1.amazonaws.com/")!
        let object = base.appendingPathComponent("bucket/object.bin")
        let transport = MockTransport()
        transport.stub(object, .response(status: 403, headers: ["Date": "Fri, 24 May 2013 01:00:00 GMT"], chunks: []))
        transport.stub(object, .response(status: 200, headers: ["Content-Type": "application/json"],
                                         chunks: [Array(#"{"method":"PUT","path":"/","headers":[],"bodyBase64":""}"#.utf8)]))
        var configuration = HTTPClientConfiguration()
        let date = self.date
        configuration.pipeline.interceptors = [AWSSignatureV4Interceptor(streamingSigner(chunkBytes: 8192), now: { date })]
        let client = try HTTPClient.stub(baseURL: base, transport: transport, configuration: configuration)
        let payload = TemporaryDirectory.pattern(count: 20_000, seed: 7)
        _ = try await client.send(Put(body: .bytes(payload, contentType: "application/octet-stream")))
        let sent = transport.requests
        #expect(sent.count == 2 && sent.map { $0.headers["X-Amz-Date"] } == ["20130524T000000Z", "20130524T010000Z"])
        for request in sent {
            #expect(request.headers["Content-Encoding"] == "aws-chunked" && request.headers["X-Amz-Decoded-Content-Length"] == "20000")
            let body = try #require(request.body).readAll()
            #expect(request.headers["Content-Length"] == String(body.count))
            #expect(try Self.chunks(body).flatMap(\.data) == payload)
        }
    }

    @Test("a stream body is read again from its start by a retry; one that ends before its declared length fails with a typed error")
    func streamBodies() async throws {
        let counter = Lock(0)
        let harness = try ClientHarness { request in
            counter.withLock { $0 += 1; return $0 } == 1 ? ScriptedServer.Reply(503) : .json(Echo(request).json)
        }
        let payload = TemporaryDirectory.pattern(count: 300_000, seed: 11)
        let stream = CountingStream(payload, declared: Int64(payload.count))
        let echo = try await harness.client().send(Put(body: .stream(stream)))
        #expect(echo.body == payload && harness.server.log.map(\.body) == [payload, payload])
        #expect(stream.readings.withLock { $0 } == 2)

        let short = CountingStream(Array(payload.prefix(50)), declared: 100)
        let error = await #expect(throws: HTTPError.self) {
            _ = try await harness.client().send(Put(body: RequestContent(contentType: nil) { () throws(HTTPError) in .stream(short) }))
        }
        #expect(error?.code == .uploadUnreadable && error?.message.contains("ended after 50 of the 100 bytes") == true)
        #expect(short.readings.withLock { $0 } == 1)
    }

    /// Reads up to `bytes` from `reader` in 4 KiB pieces.
    private static func read(_ reader: any HTTPBodyStreamReader, bytes: Int) throws(HTTPError) -> Int {
        var piece = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < bytes {
            let count = try piece.withUnsafeMutableBytes { raw in
                Result { () throws(HTTPError) in try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: raw.prefix(min(raw.count, bytes - total)))) }
            }.get()
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// The chunks of an `aws-chunked` body: each one's header line and bytes; the body must end
    /// with the empty chunk.
    private static func chunks(_ body: [UInt8]) throws -> [(header: [UInt8], data: [UInt8])] {
        var out: [(header: [UInt8], data: [UInt8])] = []
        var at = 0
        while true {
            let lineEnd = try #require((at..<(body.count - 1)).first { body[$0] == 0x0D && body[$0 + 1] == 0x0A })
            let header = Array(body[at..<(lineEnd + 2)])
            let sizeText = String(decoding: header.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
            let size = try #require(Int(sizeText, radix: 16))
            let dataEnd = lineEnd + 2 + size
            try #require(dataEnd + 2 <= body.count && body[dataEnd] == 0x0D && body[dataEnd + 1] == 0x0A)
            out.append((header, Array(body[(lineEnd + 2)..<dataEnd])))
            at = dataEnd + 2
            if size == 0 { break }
        }
        #expect(at == body.count)
        return out
    }
}

/// A stream of fixed bytes that declares `declared` of them, counting its readings.
private final class CountingStream: HTTPBodyStream {
    let bytes: [UInt8]
    let length: Int64
    let readings = Lock(0)
    var summary: String { "a test stream" }

    init(_ bytes: [UInt8], declared: Int64) {
        self.bytes = bytes
        length = declared
    }

    func makeReader() throws(HTTPError) -> any HTTPBodyStreamReader {
        readings.withLock { $0 += 1 }
        return BytesBodyStreamReader(bytes)
    }
}
