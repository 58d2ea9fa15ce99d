import Dispatch

/// Two pieces of synchronous work done side by side — on two threads when a core is free, else
/// one after the other on the caller's — returning once both have: hashing a buffer while it is
/// written, or making the next buffer while the last is written. The caller keeps what each
/// closure touches apart (neither may change what the other reads); nothing here locks.
public enum SideBySide {
    /// Below this many bytes a second thread costs more than it saves.
    public static let worthwhileBytes = 256 << 10

    /// Runs `first` and `second` side by side; after both ended, the error the first of them
    /// threw (else the second's).
    public static func run<Failure: Error>(_ first: () throws(Failure) -> Void, _ second: () throws(Failure) -> Void) throws(Failure) {
        try withoutActuallyEscaping(first) { first throws(Failure) in
            try withoutActuallyEscaping(second) { second throws(Failure) in
                let pair = Pair(first: first, second: second)
                DispatchQueue.concurrentPerform(iterations: 2) { pair.run($0) }
                if let failure = pair.firstFailure ?? pair.secondFailure { throw failure }
            }
        }
    }

    /// Runs `first` and `second` side by side when `bytes` make it worthwhile, else one after the other.
    public static func run<Failure: Error>(bytes: Int, _ first: () throws(Failure) -> Void, _ second: () throws(Failure) -> Void) throws(Failure) {
        guard bytes >= worthwhileBytes else {
            try first()
            try second()
            return
        }
        try run(first, second)
    }
}

/// The two closures of one `SideBySide.run` and what each threw. `@unchecked Sendable`: each
/// closure runs exactly once, on one thread, and sets only its own failure; the failures are read
/// only after `concurrentPerform` has returned, which orders that after both.
private final class Pair<Failure: Error>: @unchecked Sendable {
    let first: () throws(Failure) -> Void
    let second: () throws(Failure) -> Void
    var firstFailure: Failure?
    var secondFailure: Failure?

    init(first: @escaping () throws(Failure) -> Void, second: @escaping () throws(Failure) -> Void) {
        self.first = first
        self.second = second
    }

    func run(_ index: Int) {
        if index == 0 {
            do throws(Failure) { try first() } catch { firstFailure = error }
        } else {
            do throws(Failure) { try second() } catch { secondFailure = error }
        }
    }
}
