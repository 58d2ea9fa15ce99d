import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

/// AWS Signature V4 against the published example (get-vanilla, the documented signing key) and
/// against botocore's signer (PyPI, run here with the same inputs and a pinned clock): headers,
/// queries, bodies, session tokens, S3's single encoding and unsigned payloads, presigned URLs.
@Suite("AWS Signature V4: as AWS documents it and botocore signs")
struct AWSSignatureV4Tests {
    static let credentials = AWSCredentials(accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    /// 2015-08-30T12:36:00Z, the test suite's instant.
    static let date = Date(timeIntervalSince1970: 1_440_938_160)

    @Test("get-vanilla: the published signature")
    func vanilla() throws {
        var request = HTTPRequest(url: URL(string: "https://example.amazonaws.com/")!)
        try AWSSignatureV4(credentials: Self.credentials, region: "us-east-1", service: "service").sign(&request, at: Self.date)
        #expect(request.headers["X-Amz-Date"] == "20150830T123600Z")
        #expect(request.headers["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            + "SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
    }

    @Test("the credentials' description shows the access key ID only")
    func redactedCredentials() {
        let temporary = AWSCredentials(accessKeyId: "ASIAEXAMPLE", secretAccessKey: "s3cr3t-value", sessionToken: "tok3n-value")
        for text in [String(describing: temporary), String(reflecting: temporary), "\(temporary)"] {
            #expect(text.contains("ASIAEXAMPLE") && !text.contains("s3cr3t") && !text.contains("tok3n"), "\(text)")
        }
    }

    @Test("a presigned URL's expiry must be 1…604800 seconds; a URL without a host cannot be signed")
    func refusals() {
        let signer = AWSSignatureV4(credentials: Self.credentials, region: "us-east-1", service: "s3")
        #expect(throws: HTTPError.self) { _ = try signer.presign(URL(string: "https://b.s3.amazonaws.com/k")!, expires: 0, at: Self.date) }
        #expect(throws: HTTPError.self) { _ = try signer.presign(URL(string: "https://b.s3.amazonaws.com/k")!, expires: 604_801, at: Self.date) }
        var request = HTTPRequest(url: URL(string: "file:///tmp/x")!)
        #expect(throws: HTTPError.self) { try signer.sign(&request, at: Self.date) }
    }

    /// One request both sign.
    struct Case: Codable {
        var method = "GET"
        var url: String
        var headers: [[String]] = []
        var body: String?
        var service = "service"
        var region = "us-east-1"
        var token: String?
        var unsigned = false
        var presign: Int?
    }

    static let cases: [Case] = [
        Case(url: "https://example.amazonaws.com/"),
        Case(url: "https://example.amazonaws.com/?Param2=value2&Param1=value1&param1=value0"),
        Case(url: "https://example.amazonaws.com/path/with%20space/%E2%82%AC/?q=a%2Bb&q=a%20b&empty="),
        Case(url: "https://example.amazonaws.com/a/./b/../c//d"),
        Case(method: "POST", url: "https://abc123.execute-api.eu-west-1.amazonaws.com/prod/items", headers: [["Content-Type", "application/json"],
             ["X-Custom", "  spaced   out  value "]], body: "{\"name\":\"tessera\"}", service: "execute-api", region: "eu-west-1",
             token: "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI"),
        Case(method: "PUT", url: "http://examplebucket.s3.amazonaws.com/photos/my%20photo.jpg", headers: [["Content-Type", "image/jpeg"]],
             body: "not really a jpeg", service: "s3"),
        Case(method: "PUT", url: "https://examplebucket.s3.amazonaws.com/a/./b.txt", body: "unsigned body", service: "s3", unsigned: true),
        Case(url: "https://example.amazonaws.com:8443/port?x=1", service: "mediapackage", region: "ap-southeast-2"),
        Case(url: "https://examplebucket.s3.amazonaws.com/test.txt", service: "s3", presign: 86_400),
        Case(url: "https://examplebucket.s3.amazonaws.com/dir/file%20name.txt?versionId=3", service: "s3", token: "session-token/+=", presign: 3600),
        Case(url: "https://example.amazonaws.com/thing?Action=List", service: "service", presign: 300),
    ]

    /// What botocore makes of every case: its Authorization header, or its presigned URL.
    static func botocore(_ cases: [Case]) throws -> [[String: String]] {
        let python = try #require(ExternalProcess.find("python3"), "python3 is needed (Scripts/bootstrap.sh installs it with botocore)")
        let script = #"""
        import datetime, json, sys
        from unittest import mock
        import botocore.auth as auth
        from botocore.awsrequest import AWSRequest
        from botocore.config import Config
        from botocore.credentials import Credentials
        out = []
        with mock.patch('botocore.auth.get_current_datetime', return_value=datetime.datetime(2015, 8, 30, 12, 36, 0)):
            for c in json.loads(sys.argv[1]):
                creds = Credentials('AKIDEXAMPLE', 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', c.get('token'))
                r = AWSRequest(method=c['method'], url=c['url'], headers=dict(c['headers']), data=(c.get('body') or '').encode())
                if c['unsigned']:
                    r.context['client_config'] = Config(s3={'payload_signing_enabled': False})
                s3 = c['service'] == 's3'
                if c.get('presign'):
                    kind = auth.S3SigV4QueryAuth if s3 else auth.SigV4QueryAuth
                    kind(creds, c['service'], c['region'], expires=c['presign']).add_auth(r)
                    out.append({'url': r.url})
                else:
                    kind = auth.S3SigV4Auth if s3 else auth.SigV4Auth
                    kind(creds, c['service'], c['region']).add_auth(r)
                    out.append({'authorization': r.headers['Authorization'], 'sha': r.headers.get('X-Amz-Content-SHA256') or ''})
        print(json.dumps(out))
        """#
        let input = String(decoding: try JSONEncoder().encode(cases), as: UTF8.self)
        let result = try ExternalProcess.run(python, ["-c", script, input])
        #expect(result.status == 0, "botocore (pip install botocore): \(result.errors.suffix(400))")
        return try JSONDecoder().decode([[String: String]].self, from: Data(result.output.utf8))
    }

    /// The query parameters of `url`, by name.
    static func parameters(_ url: String) -> [String: String] {
        let query = URLComponents(string: url)?.percentEncodedQuery ?? ""
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[String(parts[0]).removingPercentEncoding ?? String(parts[0])] = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : ""
        }
        return result
    }

    @Test("every case signs as botocore signs it")
    func againstBotocore() throws {
        let expected = try Self.botocore(Self.cases)
        try #require(expected.count == Self.cases.count)
        for (item, theirs) in zip(Self.cases, expected) {
            let credentials = AWSCredentials(accessKeyId: Self.credentials.accessKeyId, secretAccessKey: Self.credentials.secretAccessKey,
                                             sessionToken: item.token)
            var signer = AWSSignatureV4(credentials: credentials, region: item.region, service: item.service)
            if item.unsigned { signer.payload = .unsigned }
            if let expires = item.presign {
                let ours = try signer.presign(URL(string: item.url)!, expires: expires, at: Self.date)
                let (mine, reference) = (Self.parameters(ours.absoluteString), Self.parameters(theirs["url"] ?? ""))
                #expect(mine == reference, "\(item.url): ours \(ours.absoluteString), botocore's \(theirs["url"] ?? "")")
                #expect(ours.absoluteString.hasPrefix(item.url.split(separator: "?")[0]))
                continue
            }
            var request = HTTPRequest(url: URL(string: item.url)!)
            request.method = HTTPMethod(item.method)
            for header in item.headers { request.headers.add(header[0], header[1]) }
            if let body = item.body { request.body = .bytes(Array(body.utf8)) }
            try signer.sign(&request, at: Self.date)
            #expect(request.headers["Authorization"] == theirs["authorization"], "\(item.method) \(item.url)")
            #expect((request.headers["X-Amz-Content-SHA256"] ?? "") == (theirs["sha"] ?? ""), "\(item.url)")
            #expect(request.headers["X-Amz-Security-Token"] == item.token)
        }
    }
}
