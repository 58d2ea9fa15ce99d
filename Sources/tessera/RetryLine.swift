import TesseraHTTP

/// Says each retry's wait on standard error: a command that waits (Retry-After, backoff) is
/// never silent.
enum RetryLine {
    /// Prints `event` when it is a retry: "retry 2 of https://…?x=<redacted> in 4.0 s: status 503".
    static func print(_ event: HTTPEvent) {
        guard case .retry(let attempt, let delay, let reason) = event.kind else { return }
        Terminal.line(text(url: event.url, attempt: attempt, delay: delay, reason: reason), to: .standardError)
    }

    /// The line for a retry.
    static func text(url: String, attempt: Int, delay: Duration, reason: String) -> String {
        "retry \(attempt) of \(url) in \(seconds(delay)): \(reason)"
    }

    /// `delay` as seconds with one decimal ("4.0 s", "0.2 s").
    static func seconds(_ delay: Duration) -> String {
        let tenths = (delay.components.seconds * 10) + delay.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(abs(tenths % 10)) s"
    }
}
