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
