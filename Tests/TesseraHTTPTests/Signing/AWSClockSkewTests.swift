import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting

@Suite("AWS Signature V4: a clock skew refusal corrected once, and remembered")
struct AWSClockSkewTests {
    private struct Get: Endpoint {
        typealias Response = [UInt8]
        var path: String
    }

    private let base = URL(string: "https://examplebucket.s3.eu-west-1.amazonaws.com/")!
    private let signer = AWSSignatureV4(credentials: AWSCredentials(accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                                        region: "eu-west-1", service: "s3")
    /// Our clock: 2015-08-30 12:36:00 UTC. The server's is an hour ahead.
    private let ours = Date(timeIntervalSince1970: 1_440_938_160)
    private let serverDate = "Sun, 30 Aug 2015 13:36:00 GMT"

    private func client(_ transport: MockTransport, _ interceptor: AWSSignatureV4Interceptor) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.pipeline.interceptors = [interceptor]
        return try HTTPClient.stub(baseURL: base, transport: transport, configuration: configuration)
    }

    @Test("RequestTimeTooSkewed with the server's Date: signed again on its clock, sent once more; the next request starts corrected")
    func corrected() async throws {
        let object = base.appendingPathComponent("photo.jpg")
        let transport = MockTransport()
        transport.stub(object, .response(status: 403, headers: ["Date": serverDate, "Content-Type": "application/xml"],
                                         chunks: [Array("<Error><Code>RequestTimeTooSkewed</Code></Error>".utf8)]))
        transport.stub(object, .ok([1, 2, 3]))
        let now = ours
        let interceptor = AWSSignatureV4Interceptor(signer, now: { now })
        let client = try client(transport, interceptor)
        #expect(try await client.send(Get(path: "photo.jpg")) == [1, 2, 3])
        let dates = transport.requests.map { $0.headers["X-Amz-Date"] }
        #expect(dates == ["20150830T123600Z", "20150830T133600Z"])
        #expect(transport.requests[0].headers["Authorization"] != transport.requests[1].headers["Authorization"])
        #expect(interceptor.clockCorrection == .seconds(3600))
        _ = try await client.send(Get(path: "photo.jpg"))
        #expect(transport.requests.count == 3 && transport.requests[2].headers["X-Amz-Date"] == "20150830T133600Z")
    }

    @Test("a 403 whose Date agrees with ours is an answer, not skew: delivered as is, no second request")
    func notSkew() async throws {
        let object = base.appendingPathComponent("secret.txt")
        let transport = MockTransport()
        transport.stub(object, .response(status: 403, headers: ["Date": "Sun, 30 Aug 2015 12:37:00 GMT"], chunks: [Array("<Error><Code>AccessDenied</Code></Error>".utf8)]))
        let now = ours
        let client = try client(transport, AWSSignatureV4Interceptor(signer, now: { now }))
        await #expect { _ = try await client.send(Get(path: "secret.txt")) } throws: { ($0 as? HTTPError)?.status == 403 }
        #expect(transport.requests.count == 1)
    }

    @Test("a server that stays skewed after the correction gets one replay only")
    func oneReplay() async throws {
        let object = base.appendingPathComponent("x")
        let transport = MockTransport()
        transport.stub(object, .response(status: 403, headers: ["Date": serverDate], chunks: []))
        transport.stub(object, .response(status: 403, headers: ["Date": "Sun, 30 Aug 2015 16:36:00 GMT"], chunks: []))
        let now = ours
        let client = try client(transport, AWSSignatureV4Interceptor(signer, now: { now }))
        await #expect { _ = try await client.send(Get(path: "x")) } throws: { ($0 as? HTTPError)?.status == 403 }
        #expect(transport.requests.count == 2)
    }
}

@Suite("AWS Signature V4: chunked streaming signatures")
struct AWSStreamingSignatureTests {
    /// The example of AWS's "Signature Calculations for the Authorization Header: Transferring
    /// Payload in Multiple Chunks": 66,560 bytes of "a" in 64 KiB chunks.
    @Test("the published S3 example: seed, both chunk signatures, the final chunk, the encoded length")
    func publishedExample() throws {
        let signer = AWSSignatureV4(credentials: AWSCredentials(accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                    region: "us-east-1", service: "s3")
        var request = HTTPRequest(url: URL(string: "https://s3.amazonaws.com/examplebucket/chunkObject.txt")!)
        request.method = .put
        request.headers.set("x-amz-storage-class", "REDUCED_REDUNDANCY")
        request.body = .bytes([UInt8](repeating: 0x61, count: 66_560))
        try signer.signStreaming(&request, at: Date(timeIntervalSince1970: 1_369_353_600), chunkBytes: 65_536)
        #expect(request.headers["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class, "
            + "Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9")
        #expect(request.headers["Content-Length"] == "66824" && request.headers["X-Amz-Decoded-Content-Length"] == "66560")
        #expect(request.headers["X-Amz-Content-SHA256"] == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD" && request.headers["Content-Encoding"] == "aws-chunked")
        let body = try #require(request.body).readAll()
        #expect(body.count == 66_824)
        let first = "10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n"
        #expect(Array(body.prefix(first.utf8.count)) == Array(first.utf8))
        let secondAt = first.utf8.count + 65_536 + 2
        let second = "400;chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n"
        #expect(Array(body[secondAt..<(secondAt + second.utf8.count)]) == Array(second.utf8))
        let last = "0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n"
        #expect(Array(body.suffix(last.utf8.count)) == Array(last.utf8))
    }

    @Test("refusals: chunks under 8 KiB, a file body that cannot be opened")
    func refusals() {
        let signer = AWSSignatureV4(credentials: AWSCredentials(accessKeyId: "A", secretAccessKey: "B"), region: "us-east-1", service: "s3")
        var request = HTTPRequest(url: URL(string: "https://s3.amazonaws.com/b/k")!)
        request.body = .bytes([1])
        #expect(throws: HTTPError.self) { try signer.signStreaming(&request, at: Date(), chunkBytes: 1024) }
        request.body = .file(URL(fileURLWithPath: "/nonexistent/object.bin"))
        let error = #expect(throws: HTTPError.self) { try signer.signStreaming(&request, at: Date()) }
        #expect(error?.stage == .file && error?.code == .uploadUnreadable)
    }
}
