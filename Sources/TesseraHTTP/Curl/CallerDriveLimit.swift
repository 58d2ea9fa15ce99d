#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// How many callers may drive a curl multi at once (`CurlEngine.driveInline`), across the engines
/// that share it: each holds a thread of the cooperative pool, blocked in poll(2), while it drives.
final class CallerDriveLimit: Sendable {
    /// The whole process's: one fewer than the cores it may use (the pool's width less one), so
    /// the pool always keeps a thread; none on a single core.
    static let process = CallerDriveLimit(maximum: max(0, ProcessInfo.processInfo.activeProcessorCount - 1))

    let maximum: Int
    private let current = Atomic<Int>(0)

    init(maximum: Int) { self.maximum = maximum }

    /// Takes a place if one is free; a caller that got one gives it back with `leave()`.
    func enter() -> Bool {
        var now = current.load(ordering: .relaxed)
        while now < maximum {
            let (exchanged, original) = current.compareExchange(expected: now, desired: now + 1, ordering: .acquiring)
            if exchanged { return true }
            now = original
        }
        return false
    }

    func leave() { current.subtract(1, ordering: .releasing) }
}
