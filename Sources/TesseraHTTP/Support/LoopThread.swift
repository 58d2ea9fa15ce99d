import TesseraSupport

/// Starts the HTTP engine's detached OS threads.
enum LoopThread {
    /// Runs `body` on a new detached thread.
    /// - Throws: `internal` when the thread cannot be created.
    static func start(_ body: @escaping () -> Void) throws(HTTPError) {
        let rc = OSThread.start(body)
        guard rc == 0 else {
            throw HTTPError(.internal, code: .threadStart, "The HTTP engine thread could not start (error \(rc)).")
        }
    }
}
