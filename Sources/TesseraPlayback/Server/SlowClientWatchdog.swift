import CMicroHTTPD
import TesseraHTTP
#if canImport(Glibc)
import Glibc
#endif
import TesseraSupport

/// Cuts clients that trickle a request header forever (slowloris). libmicrohttpd's timeout is an
/// *idle* timeout, reset by every byte, so it never fires for them.
///
/// A connection's phase starts when it opens or a request completes. A connection that is not
/// inside a handled request, whose phase is older than `headerDeadline`, and that received data
/// during the phase (so it is not merely an idle keep-alive, left to the idle timeout) is shut
/// down; libmicrohttpd then sees EOF and closes it. Entries are removed in the close notification,
/// which runs before the descriptor is closed, under the same lock as the sweep.
final class SlowClientWatchdog: Sendable {
    /// A connection's state: a class, so a request's start and end change it in place with one
    /// lookup and no write-back into the table (all under the table's lock).
    private final class Entry {
        let descriptor: Int32
        var phaseStart: ContinuousClock.Instant
        var isInRequest = false

        init(descriptor: Int32, phaseStart: ContinuousClock.Instant) {
            self.descriptor = descriptor
            self.phaseStart = phaseStart
        }
    }

    private let headerDeadline: Duration
    private let entries = Lock<[UInt: Entry]>([:])

    init(headerDeadline: Duration) { self.headerDeadline = headerDeadline }

    func connectionOpened(_ connection: OpaquePointer, descriptor: Int32) {
        entries.withLock { $0[Self.key(connection)] = Entry(descriptor: descriptor, phaseStart: .now) }
    }

    func connectionClosed(_ connection: OpaquePointer) {
        entries.withLock { _ = $0.removeValue(forKey: Self.key(connection)) }
    }

    func requestStarted(_ connection: OpaquePointer) {
        entries.withLock { $0[Self.key(connection)]?.isInRequest = true }
    }

    func requestEnded(_ connection: OpaquePointer) {
        let now = ContinuousClock.now
        entries.withLock { table in
            guard let entry = table[Self.key(connection)] else { return }
            entry.isInRequest = false
            entry.phaseStart = now
        }
    }

    /// Shuts down connections stuck sending a request head; returns how many.
    @discardableResult
    func sweep() -> Int {
        entries.withLock { table in
            var cut = 0
            for (_, entry) in table where !entry.isInRequest {
                let age = ContinuousClock.now - entry.phaseStart   // read the clock after the load
                guard age > headerDeadline, entry.descriptor >= 0 else { continue }
                let sinceReceive = cmhd_ms_since_last_recv(entry.descriptor)
                if Self.shouldCut(phaseAge: age, millisecondsSinceReceive: sinceReceive, headerDeadline: headerDeadline) {
                    shutdown(entry.descriptor, Int32(SHUT_RDWR))
                    cut += 1
                }
            }
            return cut
        }
    }

    /// The decision: a phase older than the deadline during which the kernel received data
    /// (250 ms slack: `tcpi_last_data_recv` has jiffy resolution). An unknown receive time (-1)
    /// never cuts.
    static func shouldCut(phaseAge: Duration, millisecondsSinceReceive: Int, headerDeadline: Duration) -> Bool {
        guard phaseAge > headerDeadline, millisecondsSinceReceive >= 0 else { return false }
        let ageMilliseconds = Int(phaseAge.components.seconds) * 1000
            + Int(phaseAge.components.attoseconds / 1_000_000_000_000_000)
        return millisecondsSinceReceive + 250 < ageMilliseconds
    }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }
}
