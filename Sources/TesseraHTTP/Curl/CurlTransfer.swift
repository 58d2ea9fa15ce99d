import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// One request on one easy handle.
///
/// Confinement: `loop` state and the easy handle are touched only by the engine's driver — its loop
/// thread, or a caller driving an idle engine — after `init`, which runs on the submitting task
/// before the handle is handed over (through the engine's locked inbox, or to the caller itself).
/// Everything consumers touch lives in `shared`, behind a lock. The engine's active table retains the transfer while its handle is inside the multi, so the unretained
/// pointer given to curl's callbacks stays valid.
final class CurlTransfer: @unchecked Sendable {
    /// Progress of the response, touched by the engine's driver only.
    struct LoopState {
        var headerFields = HTTPHeaders()
        var headerBytes = 0
        var isHeadDelivered = false
        /// A failure the loop decided on while curl was still running (the callback then aborts).
        var failure: HTTPError?
        var receivedBytes: UInt64 = 0
        /// Range emulation on a 200: bytes still to discard, bytes still to deliver.
        var skipRemaining: UInt64 = 0
        var deliverRemaining: UInt64?
        var isEmulatingRange = false
        var completedEarly = false
        /// When the head is overdue, as time since the engine started (on its clock).
        var deadline: Duration
    }

    let request: HTTPRequest
    /// The URL as messages show it (computed only for messages).
    var redactedURL: String { URLRedaction.redact(request.url) }
    let handle: OpaquePointer
    let engine: CurlEngine
    let shared = Lock(CurlTransferShared())
    var loop: LoopState
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// What a `.file` or `.stream` body is read from (a file is a `FileBodyStream`).
    let upload: (any HTTPBodyStream)?
    /// The present reading of `upload` and how many bytes it produced; loop thread only after `init`.
    var uploadReader: (any HTTPBodyStreamReader)?
    var uploadProduced: Int64 = 0

    init(request: HTTPRequest, engine: CurlEngine) throws(HTTPError) {
        self.request = request
        self.engine = engine
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HTTPError(.invalidRequest, code: .unsupportedScheme,
                            "Only http and https URLs are fetched; refused \(URLRedaction.redact(request.url)).")
        }
        try request.headers.checkSendable()
        switch request.body {
        case .file(let file)?: upload = try FileBodyStream(file)
        case .stream(let stream)?: upload = stream
        case .bytes?, nil: upload = nil
        }
        uploadReader = try upload?.makeReader()
        guard let handle = engine.handles.take() else {
            throw HTTPError(.internal, code: .curlInit, "libcurl could not create a handle for \(URLRedaction.redact(request.url)).")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        loop = LoopState(deadline: .zero)
        configure()
    }

    deinit {
        engine.handles.give(handle)   // reset first: curl lets go of the header list and error buffer
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    private func configure() {
        let limits = request.limits
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_setopt_str(handle, CURLOPT_URL, request.url.absoluteString)
        _ = ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        _ = ccurl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_setopt_str(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = ccurl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        if request.url.scheme?.lowercased() == "https" {
            // Wait for a connection being set up that may multiplex (HTTP/2 via ALPN). Plain
            // HTTP is 1.1 here: waiting would only serialise concurrent requests on one connection.
            _ = ccurl_setopt_long(handle, CURLOPT_PIPEWAIT, 1)
        }
        _ = ccurl_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        _ = ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, Self.receiveBufferBytes)
        _ = ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(limits.connectTimeout))
        _ = ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, max(1, limits.lowSpeedBytesPerSecond))
        _ = ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(limits.lowSpeedWindow.components.seconds)))
        if let total = limits.total {
            _ = ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(total))
        }
        if request.method != .head {   // a HEAD announces a length but no body follows
            _ = ccurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, Int(clamping: limits.maximumBodyBytes))
        }
        _ = ccurl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = ccurl_setopt_ptr(handle, CURLOPT_PRIVATE, me)
        _ = ccurl_setopt_data_cb(handle, CURLOPT_WRITEFUNCTION, curlBodyCallback)
        _ = ccurl_setopt_ptr(handle, CURLOPT_WRITEDATA, me)
        _ = ccurl_setopt_data_cb(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback)
        _ = ccurl_setopt_ptr(handle, CURLOPT_HEADERDATA, me)
        engine.configuration.applyConnectionOptions(to: handle, host: request.url.host ?? "")
        if let range = request.byteRange {
            _ = ccurl_setopt_str(handle, CURLOPT_RANGE, range.headerSpec)
        }
        if request.method == .head {
            _ = ccurl_setopt_long(handle, CURLOPT_NOBODY, 1)
        }
        if Self.mustNotBeResent(request) {
            // libcurl silently sends a request again when a reused connection turns out dead
            // before any reply; for a non-idempotent request that could apply it twice.
            _ = ccurl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1)
        }
        switch request.body {
        case .bytes(let body)?:
            _ = ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, body.count)
            body.withUnsafeBytes { raw in
                // COPYPOSTFIELDS copies the bytes now; nothing must outlive this call.
                _ = ccurl_setopt_ptr(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
            }
        case .file?, .stream?:
            if let upload {
                _ = ccurl_setopt_long(handle, CURLOPT_POST, 1)
                _ = ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, Int(upload.length))
                _ = ccurl_setopt_data_cb(handle, CURLOPT_READFUNCTION, curlReadCallback)
                _ = ccurl_setopt_ptr(handle, CURLOPT_READDATA, me)
                _ = ccurl_setopt_seek_cb(handle, curlSeekCallback)
                _ = ccurl_setopt_ptr(handle, CURLOPT_SEEKDATA, me)
            }
        case nil:
            break
        }
        if request.method != .get, request.method != .head {
            _ = ccurl_setopt_str(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        for field in request.headers {
            headerList = curl_slist_append(headerList, "\(field.name): \(field.value)")
        }
        if request.method == .post || request.body != nil, request.headers["Expect"] == nil {
            headerList = curl_slist_append(headerList, "Expect:")
        }
        if let headerList { _ = ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList) }
    }

    /// Non-idempotent (RFC 9110 §9.2.2) and without an `Idempotency-Key`.
    static func mustNotBeResent(_ request: HTTPRequest) -> Bool {
        !idempotentMethods.contains(request.method) && request.headers["Idempotency-Key"] == nil
    }

    private static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .options, .put, .delete, HTTPMethod("TRACE")]

    /// The text curl left in the error buffer.
    var curlErrorDetail: String { String(cString: errorBuffer) }

    /// libcurl's receive buffer per transfer: large enough that a fast local transfer arrives in
    /// few chunks (curl's 16 KiB default costs a consumer wake-up per 16 KiB), and under glibc's
    /// 128 KiB mmap and trim thresholds: at exactly 128 KiB, allocating and freeing the buffer
    /// and every body chunk copied out of it went to the kernel each time (page faults, TLB
    /// shootdowns in the profile) — a 1 GiB loopback download ran at 470 MB/s with 2.6 s of CPU;
    /// at 120 KiB it runs at 1,000+ MB/s with 1.3 s, and 32 small GETs in flight ~20 % faster.
    static let receiveBufferBytes = 120 << 10

    static func milliseconds(_ d: Duration) -> Int {
        let c = d.components
        return Int(c.seconds) * 1000 + Int(c.attoseconds / 1_000_000_000_000_000)
    }
}

/// curl's body callback: forwards to the transfer on the loop thread.
let curlBodyCallback: ccurl_data_cb = { pointer, size, count, userData in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData!).takeUnretainedValue()
    return transfer.onBody(UnsafeRawBufferPointer(start: pointer, count: size * count))
}

/// curl's read callback for a `.file` or `.stream` body: the next bytes of the present reading.
let curlReadCallback: ccurl_data_cb = { pointer, size, count, userData in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData!).takeUnretainedValue()
    guard let pointer else { return Int(CURL_READFUNC_ABORT) }
    return transfer.readUpload(into: UnsafeMutableRawBufferPointer(start: pointer, count: size * count))
}

/// curl's seek callback for a `.file` or `.stream` body: curl rewinds when it must send the body
/// again, and a rewind to the start is a fresh reading.
let curlSeekCallback: ccurl_seek_cb = { userData, offset, origin in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData!).takeUnretainedValue()
    guard origin == SEEK_SET, offset == 0 else { return CURL_SEEKFUNC_CANTSEEK }
    return transfer.rewindUpload() ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
}

/// curl's header callback: one complete line per call, status line and final empty line included.
let curlHeaderCallback: ccurl_data_cb = { pointer, size, count, userData in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userData!).takeUnretainedValue()
    return transfer.onHeaderLine(UnsafeRawBufferPointer(start: pointer, count: size * count))
}
