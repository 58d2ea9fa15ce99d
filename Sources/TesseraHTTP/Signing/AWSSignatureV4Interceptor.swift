#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Signs every request with AWS Signature V4 as the pipeline sends it (put it last among the
/// interceptors: headers added after it are not signed). A request is signed once, before its
/// first attempt: retries and redirects to the same origin reuse the signature, which AWS takes
/// for 15 minutes from `X-Amz-Date`.
///
/// **Clock skew.** AWS refuses a signature whose time is too far from its own
/// (`RequestTimeTooSkewed`, `Signature expired`). When a request is refused with 400, 401 or 403
/// and the response's `Date` is more than `skewTolerance` away from the signing clock, the
/// interceptor learns the offset, signs the request again on the corrected clock and has it sent
/// once more; later requests are signed on the corrected clock too (as botocore does).
public struct AWSSignatureV4Interceptor: HTTPReplayingInterceptor {
    /// The signer.
    public let signer: AWSSignatureV4
    /// How far the server's clock may be from ours before a refusal is taken for skew.
    public let skewTolerance: Duration
    private let now: @Sendable () -> Date
    private let offset = Lock<TimeInterval>(0)

    /// An interceptor signing with `signer` at the time `now` gives (the system clock by default).
    public init(_ signer: AWSSignatureV4, skewTolerance: Duration = .seconds(240), now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.skewTolerance = skewTolerance
        self.now = now
    }

    /// The correction learnt from the server's clock so far (zero until a skew refusal).
    public var clockCorrection: Duration { .milliseconds(Int64((offset.withLock { $0 } * 1000).rounded())) }

    private var signingTime: Date { now().addingTimeInterval(offset.withLock { $0 }) }

    public func intercept(_ request: inout HTTPRequest) async throws(HTTPError) {
        try signer.sign(&request, at: signingTime)
    }

    public func replay(_ request: inout HTTPRequest, after head: HTTPResponseHead) async throws(HTTPError) -> Bool {
        guard [400, 401, 403].contains(head.status), let text = head.headers["Date"],
              let server = HTTPDate.secondsSince1970(text, now: Int64(now().timeIntervalSince1970)) else { return false }
        let skew = TimeInterval(server) - signingTime.timeIntervalSince1970
        let tolerance = Double(skewTolerance.components.seconds)
        guard abs(skew) > tolerance else { return false }
        offset.withLock { $0 += skew }
        try signer.sign(&request, at: signingTime)
        return true
    }
}
