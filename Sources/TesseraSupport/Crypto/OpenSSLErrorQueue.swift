import CCrypto

/// Reads and clears libcrypto's per-thread error queue. Call it in the same synchronous stretch as
/// the failing call: the queue belongs to the OS thread, and an `await` may move the task.
package enum OpenSSLErrorQueue {
    /// The oldest queued error as text (or a fallback), clearing the queue.
    package static func drain() -> String {
        let code = ERR_get_error()
        defer { ERR_clear_error() }
        guard code != 0 else { return "no libcrypto detail" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
