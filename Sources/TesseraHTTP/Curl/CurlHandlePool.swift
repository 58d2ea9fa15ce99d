import CCurl
import TesseraSupport

/// Idle easy handles kept for the next transfers (at most `capacity`): `curl_easy_reset` clears a
/// handle's options but keeps what it allocated (its state, its receive buffer), so a small
/// request does not pay libcurl's set-up and tear-down each time. Handles are reset on return,
/// outside any multi and without a share; the pool frees what it holds when it goes.
final class CurlHandlePool: Sendable {
    private let idle = Lock<[OpaquePointer]>([])
    let capacity: Int

    init(capacity: Int = 64) { self.capacity = capacity }

    deinit {
        for handle in idle.withLock({ $0 }) { curl_easy_cleanup(handle) }
    }

    /// An idle handle, or a new one (nil when libcurl cannot make one).
    func take() -> OpaquePointer? {
        if let handle = idle.withLock({ $0.popLast() }) { return handle }
        return curl_easy_init()
    }

    /// Takes a handle back (reset), or frees it when the pool is full.
    func give(_ handle: OpaquePointer) {
        curl_easy_reset(handle)
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < capacity else { return false }
            idle.append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(handle) }
    }
}
