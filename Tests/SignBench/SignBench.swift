import Foundation
import TesseraHTTP

/// `tessera-sign-bench [--count N] [--kind K]`: AWS Signature V4 throughput for the benchmark — N signed
/// requests of each kind (a GET with a query, an S3 PUT of 1 KiB, a presigned S3 GET), with the
/// same inputs as the botocore run beside it (`--kind`: that kind only). Prints one line per kind: `<kind> <count> <seconds>`.
/// `TESSERA_BENCH_PLANT_SLOWDOWN=<fraction>` (the bench gate's self-test) makes the signer that
/// fraction slower — it signs 1/(1 − fraction) requests for each one it reports, so 0.3 takes its
/// rate down 30 % — a real slowdown of the binary, which `bench.sh --check` must catch.
@main
struct SignBench {
    static func main() throws {
        var count = 20_000
        var only: String?
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            if argument == "--kind", let kind = arguments.popFirst() {
                only = kind
                continue
            }
            guard argument == "--count", let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
                FileHandle.standardError.write(Data("usage: tessera-sign-bench [--count N] [--kind get-query|s3-put-1k|s3-presign]\n".utf8))
                exit(2)
            }
            count = value
        }
        let credentials = AWSCredentials(accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                         sessionToken: "session-token")
        let date = Date(timeIntervalSince1970: 1_440_938_160)
        let service = AWSSignatureV4(credentials: credentials, region: "eu-west-1", service: "execute-api")
        let s3 = AWSSignatureV4(credentials: credentials, region: "eu-west-1", service: "s3")
        let body = [UInt8](repeating: 0x61, count: 1024)
        let query = URL(string: "https://abc123.execute-api.eu-west-1.amazonaws.com/prod/items?limit=50&start=token%2F1&filter=a%20b")!
        let object = URL(string: "https://examplebucket.s3.eu-west-1.amazonaws.com/photos/my%20photo.jpg")!
        var checksum = 0
        let planted = ProcessInfo.processInfo.environment["TESSERA_BENCH_PLANT_SLOWDOWN"].flatMap(Double.init) ?? 0
        let extra = Int(Double(count) * (1 / (1 - min(max(0, planted), 0.9)) - 1))
        func time(_ kind: String, _ work: () throws -> Int) rethrows {
            guard only == nil || only == kind else { return }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<(count + extra) { checksum &+= try work() }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            print("\(kind) \(count) \(String(format: "%.4f", seconds))")
        }
        try time("get-query") {
            var request = HTTPRequest(url: query)
            request.headers.set("Content-Type", "application/json")
            try service.sign(&request, at: date)
            return request.headers["Authorization"]?.count ?? 0
        }
        try time("s3-put-1k") {
            var request = HTTPRequest(url: object)
            request.method = .put
            request.body = .bytes(body)
            try s3.sign(&request, at: date)
            return request.headers["Authorization"]?.count ?? 0
        }
        try time("s3-presign") { try s3.presign(object, expires: 3600, at: date).absoluteString.count }
        if checksum == 42 { print("") }   // keeps the work observable
    }
}
