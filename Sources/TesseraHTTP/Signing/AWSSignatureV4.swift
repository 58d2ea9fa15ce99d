#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`): signs a request's headers
/// (`Authorization`, `X-Amz-Date`, `X-Amz-Security-Token`, `X-Amz-Content-SHA256`) or makes a
/// presigned URL (`X-Amz-*` query parameters), as AWS documents it and botocore does it: the
/// canonical request (method, the path — normalized and encoded again for every service but
/// S3 — the sorted, RFC 3986-encoded query, the lowercased sorted headers with their values'
/// whitespace collapsed, the signed header names, the payload's SHA-256 or `UNSIGNED-PAYLOAD`),
/// the string to sign over its scope (`<date>/<region>/<service>/aws4_request`), and the
/// HMAC-SHA256 chain of the signing key. Pure but for the clock a caller passes in.
public struct AWSSignatureV4: Sendable {
    /// What the signature says of the body.
    public enum Payload: Sendable, Equatable {
        /// Its SHA-256 (a file body is read to hash it).
        case signed
        /// `UNSIGNED-PAYLOAD`: the body is not covered (S3 over HTTPS accepts it).
        case unsigned
        /// This hex SHA-256, computed by the caller.
        case precomputed(String)
        /// A chunked streaming signature (`STREAMING-AWS4-HMAC-SHA256-PAYLOAD`): the body sent
        /// `aws-chunked` in chunks of this many bytes (at least 8 KiB), each signed in a chain —
        /// `sign(_:at:)` does what `signStreaming(_:at:chunkBytes:)` does.
        case streaming(chunkBytes: Int)
    }

    /// The signing algorithm's name.
    public static let algorithm = "AWS4-HMAC-SHA256"
    /// Header names never signed (they change on the way: botocore's list).
    static let unsignedHeaders: Set<String> = ["authorization", "expect", "transfer-encoding", "user-agent", "x-amzn-trace-id"]

    public let credentials: AWSCredentials
    /// The region (`us-east-1`).
    public let region: String
    /// The service (`s3`, `execute-api`, `mediapackage`).
    public let service: String
    /// What the signature covers of the body. Default `.signed`.
    public var payload = Payload.signed
    /// Send `X-Amz-Content-SHA256` (S3 requires it). Default: the service is `s3`.
    public var sendsContentSHA256: Bool
    /// Remove dot segments from the path and encode it again (every service but S3). Default:
    /// the service is not `s3`.
    public var normalizesPath: Bool
    /// The last day's signing key (the SDKs keep it: it changes once a day).
    private let keys = Lock<(day: String, key: [UInt8])?>(nil)

    /// A signer for `service` in `region` with `credentials`.
    public init(credentials: AWSCredentials, region: String, service: String) {
        self.credentials = credentials
        self.region = region
        self.service = service
        sendsContentSHA256 = service == "s3"
        normalizesPath = service != "s3"
    }

    /// Signs `request` at `date`: adds `X-Amz-Date`, `X-Amz-Security-Token` (temporary
    /// credentials), `X-Amz-Content-SHA256` (when it sends it) and `Authorization`, every other
    /// header of the request signed as it is (but those that change on the way).
    /// - Throws: `signing-failed` for a URL without a host; `file` (`upload-unreadable`) for a
    ///   `.signed` file or stream body that cannot be read to hash it.
    public func sign(_ request: inout HTTPRequest, at date: Date) throws(HTTPError) {
        if case .streaming(let chunkBytes) = payload { return try signStreaming(&request, at: date, chunkBytes: chunkBytes) }
        _ = try sign(&request, at: date, payloadHash: try hash(of: request.body))
    }

    /// Signs with `payloadHash` as the body's hash; returns the signature.
    @discardableResult
    func sign(_ request: inout HTTPRequest, at date: Date, payloadHash: String, alwaysSendsContentSHA256: Bool = false) throws(HTTPError) -> String {
        let stamp = Self.timestamp(date)
        // A retry signs again: the earlier signature's fields go (a session token the caller set
        // as a header stays, signed, when the credentials carry none).
        for name in ["Authorization", "X-Amz-Date", "X-Amz-Content-SHA256"] { request.headers.remove(name) }
        request.headers.set("X-Amz-Date", stamp)
        if let token = credentials.sessionToken { request.headers.set("X-Amz-Security-Token", token) }
        if sendsContentSHA256 || alwaysSendsContentSHA256 { request.headers.set("X-Amz-Content-SHA256", payloadHash) }
        var headers = request.headers.map { ($0.name, $0.value) }
        headers.append(("host", try Self.host(of: request.url)))
        let canonical = canonicalRequest(method: request.method.rawValue, url: request.url, headers: headers, payloadHash: payloadHash)
        let scope = self.scope(stamp)
        let signature = self.signature(canonical.text, stamp: stamp, scope: scope)
        request.headers.set("Authorization", "\(Self.algorithm) Credential=\(credentials.accessKeyId)/\(scope), "
                            + "SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)")
        return signature
    }

    /// The presigned form of `url` for `method` at `date`, valid `expires` seconds (1…604800):
    /// the `X-Amz-*` parameters (the session token among them) added to its query, `headers`
    /// and `host` signed. S3 signs `UNSIGNED-PAYLOAD`, other services the empty body.
    /// - Throws: `signing-failed` for an expiry out of range or a URL without a host.
    public func presign(_ url: URL, method: HTTPMethod = .get, expires: Int, at date: Date, headers: HTTPHeaders = HTTPHeaders()) throws(HTTPError) -> URL {
        guard (1...604_800).contains(expires) else {
            throw HTTPError(.invalidRequest, code: .signingFailed, "A presigned URL expires after 1 to 604800 seconds, not \(expires).")
        }
        let stamp = Self.timestamp(date)
        let scope = self.scope(stamp)
        var signed = headers.map { ($0.name, $0.value) }
        signed.append(("host", try Self.host(of: url)))
        let names = Self.signedNames(signed)
        var parameters = [("X-Amz-Algorithm", Self.algorithm), ("X-Amz-Credential", "\(credentials.accessKeyId)/\(scope)"),
                          ("X-Amz-Date", stamp), ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", names)]
        if let token = credentials.sessionToken { parameters.append(("X-Amz-Security-Token", token)) }
        let query = parameters.map { AWSURIEncoding.encode($0.0) + "=" + AWSURIEncoding.encode($0.1) }.joined(separator: "&")
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw HTTPError(.invalidRequest, code: .signingFailed, "\(URLRedaction.redact(url)) cannot be presigned.")
        }
        components.percentEncodedQuery = [components.percentEncodedQuery, query].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        let payloadHash = service == "s3" ? "UNSIGNED-PAYLOAD" : Self.emptyPayloadHash
        let canonical = canonicalRequest(method: method.rawValue, path: components.percentEncodedPath, query: components.percentEncodedQuery,
                                         headers: signed, payloadHash: payloadHash)
        components.percentEncodedQuery = (components.percentEncodedQuery ?? "") + "&X-Amz-Signature=" + signature(canonical.text, stamp: stamp, scope: scope)
        guard let presigned = components.url else {
            throw HTTPError(.invalidRequest, code: .signingFailed, "\(URLRedaction.redact(url)) cannot be presigned.")
        }
        return presigned
    }

    // MARK: The steps (internal: tested one by one)

    /// The SHA-256 of no bytes.
    static let emptyPayloadHash = SHA256Hasher.hash([]).hex

    /// The canonical request of `url` and its signed header names.
    func canonicalRequest(method: String, url: URL, headers: [(String, String)], payloadHash: String) -> (text: String, signedHeaders: String) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        return canonicalRequest(method: method, path: components?.percentEncodedPath ?? "/", query: components?.percentEncodedQuery,
                                headers: headers, payloadHash: payloadHash)
    }

    /// The canonical request of the percent-encoded `path` and `query`, and its signed header names.
    func canonicalRequest(method: String, path encodedPath: String, query: String?, headers: [(String, String)],
                          payloadHash: String) -> (text: String, signedHeaders: String) {
        var path = encodedPath.isEmpty ? "/" : encodedPath
        if normalizesPath { path = AWSURIEncoding.encode(Self.removingDotSegments(path), keepingSlashes: true) }
        var grouped: [String: [String]] = [:]
        for (name, value) in headers {
            let lower = name.lowercased()
            guard !Self.unsignedHeaders.contains(lower) else { continue }
            grouped[lower, default: []].append(value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " "))
        }
        let names = grouped.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(grouped[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let text = [method.uppercased(), path, Self.canonicalQuery(query), canonicalHeaders, signedHeaders, payloadHash]
            .joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// The string to sign of `canonical` at `stamp` within `scope`.
    func stringToSign(_ canonical: String, stamp: String, scope: String) -> String {
        [Self.algorithm, stamp, scope, SHA256Hasher.hash(Array(canonical.utf8)).hex].joined(separator: "\n")
    }

    /// The signing key of the scope's day, region and service.
    func signingKey(day: String) -> [UInt8] {
        if let known = keys.withLock({ $0 }), known.day == day { return known.key }
        var key = HMACSHA256.mac(key: Array("AWS4\(credentials.secretAccessKey)".utf8), day)
        for part in [region, service, "aws4_request"] { key = HMACSHA256.mac(key: key, part) }
        keys.withLock { $0 = (day, key) }
        return key
    }

    /// The hex signature of `canonical`.
    func signature(_ canonical: String, stamp: String, scope: String) -> String {
        HexCoding.encode(HMACSHA256.mac(key: signingKey(day: String(stamp.prefix(8))), stringToSign(canonical, stamp: stamp, scope: scope)))
    }

    /// `<yyyymmdd>/<region>/<service>/aws4_request`.
    func scope(_ stamp: String) -> String { "\(stamp.prefix(8))/\(region)/\(service)/aws4_request" }

    /// The payload hash the signature covers.
    private func hash(of body: HTTPRequestBody?) throws(HTTPError) -> String {
        switch payload {
        case .unsigned: return "UNSIGNED-PAYLOAD"
        case .precomputed(let hex): return hex.lowercased()
        case .streaming: return Self.streamingPayload
        case .signed:
            switch body {
            case nil: return Self.emptyPayloadHash
            case .bytes(let bytes)?: return SHA256Hasher.hash(bytes).hex
            case .file(let url)?: return try Self.hash(of: FileBodyStream(url))
            case .stream(let stream)?: return try Self.hash(of: stream)
            }
        }
    }

    /// The SHA-256 of one reading of `stream` (a file body is read once to hash it, and again to send it).
    private static func hash(of stream: any HTTPBodyStream) throws(HTTPError) -> String {
        let hasher: SHA256Hasher
        do { hasher = try SHA256Hasher() } catch { throw HTTPError(.invalidRequest, code: .signingFailed, "libcrypto is unavailable: \(error.message)") }
        let reader = try stream.makeReader()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { raw in Result { () throws(HTTPError) in try reader.read(into: raw) } }.get()
            if count == 0 { return hasher.finalize().hex }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
    }

    /// The `Host` value of `url`: its host, and its port when not the scheme's default.
    static func host(of url: URL) throws(HTTPError) -> String {
        guard let host = url.host, !host.isEmpty else {
            throw HTTPError(.invalidRequest, code: .signingFailed, "\(URLRedaction.redact(url)) has no host to sign.")
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port, port != (url.scheme?.lowercased() == "https" ? 443 : 80) else { return bracketed }
        return "\(bracketed):\(port)"
    }

    /// The header names `headers` signs, lowercased, sorted, `;`-joined.
    static func signedNames(_ headers: [(String, String)]) -> String {
        Set(headers.map { $0.0.lowercased() }).subtracting(unsignedHeaders).sorted().joined(separator: ";")
    }

    /// The query's parameters decoded, encoded again (RFC 3986 unreserved kept), sorted by name
    /// then value.
    static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = AWSURIEncoding.encode(PercentDecoding.decode(String(parts[0])) ?? String(parts[0]))
            let value = parts.count > 1 ? AWSURIEncoding.encode(PercentDecoding.decode(String(parts[1])) ?? String(parts[1])) : ""
            return (name, value)
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// `path` without `.` and `..` segments (RFC 3986 §5.2.4) and without empty ones (AWS
    /// services take consecutive slashes as one), its leading slash and a trailing one kept.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == ".." {
                if !output.isEmpty { output.removeLast() }
            } else {
                output.append(segment)
            }
        }
        let first = path.hasPrefix("/") ? "/" : ""
        let last = path.hasSuffix("/") && !output.isEmpty ? "/" : ""
        return first + output.joined(separator: "/") + last
    }

    /// `date` as `yyyymmddThhmmssZ` (UTC).
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }
}
