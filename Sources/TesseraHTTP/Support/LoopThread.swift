#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a detached OS thread (pthreads, so the module needs no Foundation `Thread`).
enum LoopThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    /// - Throws: `internal` when the thread cannot be created.
    static func start(_ body: @escaping () -> Void) throws(HTTPError) {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw HTTPError(.internal, code: .threadStart, "The HTTP engine thread could not start (error \(rc)).")
        }
        pthread_detach(thread)
    }
}
