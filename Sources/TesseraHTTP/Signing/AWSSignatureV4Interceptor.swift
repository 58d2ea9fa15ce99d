#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Signs every request with AWS Signature V4 as the pipeline sends it (put it last among the
/// interceptors: headers added after it are not signed). A request is signed once, before its
/// first attempt: retries and redirects to the same origin reuse the signature, which AWS takes
/// for 15 minutes from `X-Amz-Date`.
public struct AWSSignatureV4Interceptor: HTTPInterceptor {
    /// The signer.
    public let signer: AWSSignatureV4
    private let now: @Sendable () -> Date

    /// An interceptor signing with `signer` at the time `now` gives (the system clock by default).
    public init(_ signer: AWSSignatureV4, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.now = now
    }

    public func intercept(_ request: inout HTTPRequest) async throws(HTTPError) {
        try signer.sign(&request, at: now())
    }
}
