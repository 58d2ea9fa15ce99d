import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// A connection made by libcurl with `CURLOPT_CONNECT_ONLY` — TCP, the TLS handshake with the
/// client's trust and pins, and a proxy tunnel when one is configured — then used as a byte pipe
/// through `curl_easy_send`/`curl_easy_recv` (libcurl 7.88 has no `ws:` scheme of its own).
///
/// Its own easy handle, outside the engine's multi: a multi's connection cache would prune an
/// idle CONNECT_ONLY connection whose socket has input waiting, or evict it to make room.
/// Confinement: one thread at a time (the connection's I/O thread).
final class WebSocketSocket {
    /// Cancellation seen by libcurl's progress callback while it connects.
    final class ConnectAbort: Sendable {
        let flag = Lock(false)
    }

    private let handle: OpaquePointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let abort: ConnectAbort
    /// The socket, for poll(2).
    private(set) var descriptor: Int32 = -1
    let redactedURL: String
    /// TLS (wss): decrypted bytes may wait inside OpenSSL where poll(2) cannot see them, so a
    /// reader must read until the connection says it would block.
    let isTLS: Bool

    /// Connects to `url`'s host (ws → http, wss → https, so libcurl speaks TLS for wss).
    /// - Throws: the transport's `HTTPError` (dns, connect, tls, timeout, cancelled).
    init(url: URL, configuration: CurlTransport.Configuration, connectTimeout: Duration, abort: ConnectAbort) throws(HTTPError) {
        redactedURL = URLRedaction.redact(url)
        isTLS = url.scheme?.lowercased() == "wss"
        guard CurlGlobal.initialised, let handle = curl_easy_init() else {
            throw HTTPError(.internal, code: .curlInit, "libcurl could not create a handle for \(URLRedaction.redact(url)).")
        }
        self.handle = handle
        self.abort = abort
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.scheme = url.scheme?.lowercased() == "wss" ? "https" : "http"
        components?.path = "/"
        components?.query = nil
        components?.fragment = nil
        _ = ccurl_setopt_str(handle, CURLOPT_URL, components?.string ?? "")
        _ = ccurl_setopt_long(handle, CURLOPT_CONNECT_ONLY, 1)
        _ = ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        // curl_easy_recv reads at most this much per call (16 KiB by default: a 1 MiB message
        // would take 64 calls).
        _ = ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, Self.receiveBytes)
        _ = ccurl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // The upgrade is HTTP/1.1: ALPN must not offer h2, or a server would expect HTTP/2 frames.
        _ = ccurl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        // Through a proxy, tunnel (CONNECT) even for ws://: the bytes that follow are not HTTP.
        _ = ccurl_setopt_long(handle, CURLOPT_HTTPPROXYTUNNEL, 1)
        _ = ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, CurlTransfer.milliseconds(connectTimeout))
        _ = ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, CurlTransfer.milliseconds(connectTimeout))
        _ = ccurl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
        _ = ccurl_setopt_xferinfo_cb(handle, webSocketConnectProgress)
        _ = ccurl_setopt_ptr(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(abort).toOpaque())
        configuration.applyConnectionOptions(to: handle, host: url.host ?? "")
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else {
            var osErrno = 0
            _ = ccurl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
            let error = CurlErrorMapping.error(for: .init(code: code, detail: String(cString: errorBuffer), osErrno: osErrno,
                                                          connected: false, redactedURL: redactedURL))
            throw error   // every property is set: deinit frees the handle and the buffer
        }
        var socket: curl_socket_t = -1
        _ = ccurl_getinfo_socket(handle, CURLINFO_ACTIVESOCKET, &socket)
        descriptor = socket
    }

    /// The most one receive takes (libcurl 7.88 caps its buffer at 512 KiB).
    static let receiveBytes = 256 << 10

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Writes what the socket takes now of `bytes[offset...]`; 0 when it would block.
    /// - Throws: `connection-lost` when the connection broke.
    func send(_ bytes: [UInt8], from offset: Int) throws(HTTPError) -> Int {
        guard offset < bytes.count else { return 0 }
        var sent = 0
        let code = bytes.withUnsafeBytes { raw in curl_easy_send(handle, raw.baseAddress! + offset, raw.count - offset, &sent) }
        switch code {
        case CURLE_OK: return sent
        case CURLE_AGAIN: return 0
        default: throw failure(code, "sending")
        }
    }

    /// Reads what has arrived into `buffer`: nil when nothing has (it would block), 0 at the end
    /// of the stream.
    /// - Throws: `connection-lost` when the connection broke.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPError) -> Int? {
        var received = 0
        let code = curl_easy_recv(handle, buffer.baseAddress, buffer.count, &received)
        switch code {
        case CURLE_OK: return received
        case CURLE_AGAIN: return nil
        default: throw failure(code, "receiving")
        }
    }

    private func failure(_ code: CURLcode, _ doing: String) -> HTTPError {
        let detail = String(cString: errorBuffer)
        return HTTPError(.connectionLost, code: .connectionLost,
                         "The WebSocket connection to \(redactedURL) broke while \(doing): \(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)",
                         curlCode: Int(code.rawValue))
    }
}

/// Aborts a connect once the task is cancelled.
private let webSocketConnectProgress: ccurl_xferinfo_cb = { userData, _, _, _, _ in
    let abort = Unmanaged<WebSocketSocket.ConnectAbort>.fromOpaque(userData!).takeUnretainedValue()
    return abort.flag.withLock { $0 } ? 1 : 0
}
