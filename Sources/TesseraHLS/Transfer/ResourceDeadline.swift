import Foundation
import TesseraSupport

/// How long one resource may take, from its size: `headroom` plus its bytes at `minimumRate`
/// (default 30 s + size at 16 KiB/s: 1 MB in 1.5 min, 10 MB in 11 min). Enforced above libcurl
/// on the job's clock — a segment that trickles in at a few bytes a second fails at its
/// deadline instead of holding the job for days. Unknown sizes have no deadline here (the media
/// low-speed floor still applies).
public struct ResourceDeadline: Sendable, Equatable {
    /// Time every resource gets whatever its size. Default 30 s.
    public var headroom: Duration = .seconds(30)
    /// The slowest rate a resource's bytes must arrive at, bytes per second. Default 16 KiB/s.
    public var minimumRate: UInt64 = 16 << 10

    /// The defaults.
    public init() {}

    /// The deadline of a resource of `bytes` bytes, or nil when its size is unknown.
    public func limit(forBytes bytes: UInt64?) -> Duration? {
        guard let bytes else { return nil }
        let seconds = Double(bytes) / Double(max(1, minimumRate))
        return headroom + .milliseconds(Int64(min(seconds, 86_400 * 365) * 1000))
    }

    /// Runs `work`, failing with `fetch-failed` when `limit` passes on `clock` first (nil: no
    /// deadline). The work is cancelled at the deadline.
    static func enforce<T: Sendable>(_ limit: Duration?, clock: any Clock<Duration>, what: String, url: URL,
                                     _ work: @escaping @Sendable () async throws(HLSError) -> T) async throws(HLSError) -> T {
        guard let limit else { return try await work() }
        let outcome = await withTaskGroup(of: Result<T, HLSError>?.self, returning: Result<T, HLSError>.self) { group in
            group.addTask {
                do throws(HLSError) { return .success(try await work()) } catch { return .failure(error) }
            }
            group.addTask {
                do { try await clock.sleep(for: limit) } catch { return nil }   // cancelled: the work finished first
                return .failure(HLSError(.fetchFailed, "\(what) \(URLRedaction.redact(url)) did not arrive within its deadline of \(limit) (its size at the slowest rate allowed)."))
            }
            while let first = await group.next() {
                guard let first else { continue }
                group.cancelAll()
                return first
            }
            return .failure(HLSError(.cancelled, "\(what) was cancelled."))
        }
        return try outcome.get()
    }
}
