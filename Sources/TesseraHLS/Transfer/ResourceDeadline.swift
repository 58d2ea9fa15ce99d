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
/// until then the resource has `headroom`. Enforced above libcurl on the client's clock — a
/// segment that arrives far too slowly fails at its deadline instead of holding the job for
/// days. A body of unannounced length has no deadline here (the media low-speed floor still
/// applies).
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

    /// Runs `work` under the deadline: `headroom` at first (or the limit of `expected` bytes),
    /// which `work` moves with the timer it is given once the response's length is known. Fails
    /// with `fetch-failed` when the deadline passes on `clock` first; the work is cancelled then.
    package static func enforce<T: Sendable>(_ deadline: ResourceDeadline?, expected: UInt64?, clock: any Clock<Duration>, what: String, url: URL,
                                     _ work: @escaping @Sendable (ResourceTimer?) async throws(HLSError) -> T) async throws(HLSError) -> T {
        guard let deadline else { return try await work(nil) }
        let timer = ResourceTimer(deadline: deadline, limit: expected.map(deadline.limit(forBytes:)) ?? deadline.headroom,
                                  isFixed: expected != nil)
        let outcome = await withTaskGroup(of: Result<T, HLSError>?.self, returning: Result<T, HLSError>.self) { group in
            group.addTask {
                do throws(HLSError) { return .success(try await work(timer)) } catch { return .failure(error) }
            }
            group.addTask {
                var waited: Duration = .zero
                while let limit = timer.limit {
                    guard limit > waited else {
                        return .failure(HLSError(.fetchFailed, "\(what) \(URLRedaction.redact(url)) did not arrive within its deadline of \(limit) (its size at \(deadline.minimumRate) bytes/s, plus \(deadline.headroom))."))
                    }
                    do { try await clock.sleep(for: limit - waited) } catch { return nil }   // cancelled: the work ended first
                    waited = limit
                }
                return nil    // an unannounced length: no deadline beyond the low-speed floor
            }
            while let result = await group.next() {
                guard let result else { continue }
                group.cancelAll()
                return result
            }
            return .failure(HLSError(.cancelled, "\(what) was cancelled."))
        }
        return try outcome.get()
    }
}

/// The deadline of one resource in flight, moved once its response announces its length.
package final class ResourceTimer: Sendable {
    private let deadline: ResourceDeadline
    private let isFixed: Bool
    private let state: Lock<Duration?>

    package init(deadline: ResourceDeadline, limit: Duration, isFixed: Bool) {
        self.deadline = deadline
        self.isFixed = isFixed
        state = Lock(limit)
    }

    /// The deadline now, from the start; nil when there is none.
    package var limit: Duration? { state.withLock { $0 } }

    /// The response's head arrived: its Content-Length sets the deadline (none without one),
    /// unless the plan's byte range already did.
    package func headArrived(_ head: HTTPResponseHead) {
        guard !isFixed else { return }
        let length = head.headers["Content-Length"].flatMap { UInt64($0) }
        state.withLock { $0 = length.map(deadline.limit(forBytes:)) }
    }
}
