#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// How long one resource may take, from its size: `headroom` plus its bytes at `minimumRate`
/// (default 30 s + size at 16 KiB/s: 1 MB in 1.5 min, 10 MB in 11 min). The size is the byte
/// range's when the plan has one, else the response's Content-Length once its head arrives;
/// until then the resource has `headroom`. Enforced above libcurl on the client's clock by the
/// transfer's `DeadlineWatch` — a segment that arrives far too slowly fails at its deadline
/// instead of holding the job for days. A body of unannounced length has no deadline here (the
/// media low-speed floor still applies).
public struct ResourceDeadline: Sendable, Equatable {
    /// Time every resource gets whatever its size. Default 30 s.
    public var headroom: Duration = .seconds(30)
    /// The slowest rate a resource's bytes must arrive at, bytes per second. Default 16 KiB/s.
    public var minimumRate: UInt64 = 16 << 10

    /// The defaults.
    public init() {}

    /// The deadline of a resource of `bytes` bytes.
    public func limit(forBytes bytes: UInt64) -> Duration {
        let seconds = Double(bytes) / Double(max(1, minimumRate))
        return headroom + .milliseconds(Int64(min(seconds, 86_400 * 365) * 1000))
    }
}
