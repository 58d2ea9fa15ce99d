import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif
import TesseraSupport

/// Cuts clients that hold a connection without sending a request (slowloris), and makes room
/// for new connections at the limit. libmicrohttpd's timeout is an *idle* timeout, reset by every
/// byte, so it never fires for a client that trickles.
///
/// A connection's phase starts when it opens or a request completes. A connection that is not
/// inside a handled request and whose phase is older than `headerDeadline` is shut down when it
/// is still opening (it has not sent one complete request head since it connected: silent or
/// trickling), or when it is kept alive and received data during the phase (a next request
/// trickling); an idle keep-alive connection is left to the idle timeout. At the connection
/// limit, a new connection makes room: the connection outside a request whose phase is the
/// oldest is shut down (the one idle or stuck the longest), so idle and slow clients cannot
/// starve others. libmicrohttpd then sees EOF and closes it. Entries are removed in the close
/// notification, which runs before the descriptor is closed, under the same lock as the sweep.
final class SlowClientWatchdog: Sendable {
    /// Where a connection is.
    enum Phase: Sendable, Equatable {
        /// Connected, no complete request head yet.
        case opening
        /// Kept alive after a request, waiting for the next.
        case keptAlive
    }

    /// A connection's state: a class, so a request's start and end change it in place with one
    /// lookup and no write-back into the table (all under the table's lock).
    private final class Entry {
        let descriptor: Int32
        var phaseStart: ContinuousClock.Instant
        var phase = Phase.opening
        var isInRequest = false

        init(descriptor: Int32, phaseStart: ContinuousClock.Instant) {
            self.descriptor = descriptor
            self.phaseStart = phaseStart
        }
    }

    private let headerDeadline: Duration
    /// Connections above which a new one makes room.
    private let limit: Int
    private let entries = Lock<[UInt: Entry]>([:])

    init(headerDeadline: Duration, limit: Int = .max) {
        self.headerDeadline = headerDeadline
        self.limit = limit
    }

    /// A connection opened; at the limit, the oldest outside a request is shut down to make room.
    /// Returns whether one was.
    @discardableResult
    func connectionOpened(_ connection: OpaquePointer, descriptor: Int32) -> Bool {
        entries.withLock { table in
            table[Self.key(connection)] = Entry(descriptor: descriptor, phaseStart: .now)
            guard table.count > limit else { return false }
            let victim = table.values.filter { !$0.isInRequest && $0.descriptor != descriptor && $0.descriptor >= 0 }
                .min { $0.phaseStart < $1.phaseStart }
            guard let victim else { return false }
            shutdown(victim.descriptor, Int32(SHUT_RDWR))
            return true
        }
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
            entry.phase = .keptAlive
            entry.phaseStart = now
        }
    }

    /// Connections open now.
    var count: Int { entries.withLock { $0.count } }

    /// Shuts down connections stuck opening or sending a next request head; returns how many.
    @discardableResult
    func sweep() -> Int {
        entries.withLock { table in
            var cut = 0
            for (_, entry) in table where !entry.isInRequest {
                let age = ContinuousClock.now - entry.phaseStart   // read the clock after the load
                guard age > headerDeadline, entry.descriptor >= 0 else { continue }
                let sinceReceive = entry.phase == .opening ? 0 : cmhd_ms_since_last_recv(entry.descriptor)
                if Self.shouldCut(phase: entry.phase, phaseAge: age, millisecondsSinceReceive: sinceReceive, headerDeadline: headerDeadline) {
                    shutdown(entry.descriptor, Int32(SHUT_RDWR))
                    cut += 1
                }
            }
            return cut
        }
    }

    /// The decision: a phase older than the deadline of a connection still opening, or of a
    /// kept-alive one during which the kernel received data (250 ms slack: `tcpi_last_data_recv`
    /// has jiffy resolution). An unknown receive time (-1) never cuts a kept-alive connection.
    static func shouldCut(phase: Phase, phaseAge: Duration, millisecondsSinceReceive: Int, headerDeadline: Duration) -> Bool {
        guard phaseAge > headerDeadline else { return false }
        guard phase == .keptAlive else { return true }
        guard millisecondsSinceReceive >= 0 else { return false }
        let ageMilliseconds = Int(phaseAge.components.seconds) * 1000
            + Int(phaseAge.components.attoseconds / 1_000_000_000_000_000)
        return millisecondsSinceReceive + 250 < ageMilliseconds
    }

    private static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }
}
