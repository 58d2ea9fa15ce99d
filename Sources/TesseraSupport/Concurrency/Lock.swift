#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small lock over `pthread_mutex_t` guarding one value.
///
/// Used only where a C callback must run synchronously (curl's write callback, libmicrohttpd's
/// handlers). Chosen over `Synchronization.Mutex` because the thread sanitizer reports false races
/// on the latter on Linux. Never call out (resume continuations, call curl) while holding it.
package final class Lock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Creates a lock guarding `initial`.
    package init(_ initial: State) {
        state = initial
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

extension Lock where State == UInt8 {
    /// A lock that guards no value, only a critical section. Its state is a byte, not `()`:
    /// ThreadSanitizer takes the `inout` access of a zero-size state for an access to the lock
    /// object's first word, which other threads read without the lock, and reports a race.
    package static func section() -> Lock<UInt8> { Lock(0) }
}
