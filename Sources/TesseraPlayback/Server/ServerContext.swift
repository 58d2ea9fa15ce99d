import CMicroHTTPD
import Dispatch
import TesseraSupport

/// Everything libmicrohttpd's callbacks need, passed to them as an unretained pointer. The
/// `LoopbackServer` holds the strong reference and stops the daemon before releasing it.
final class ServerContext: Sendable {
    let responder: any HTTPResponder
    let configuration: LoopbackServer.Configuration
    let suspensions = SuspensionRegistry()
    let watchdog: SlowClientWatchdog
    /// Entered for each request in flight: shutdown waits on it instead of polling.
    let requestsInFlight = DispatchGroup()

    init(responder: any HTTPResponder, configuration: LoopbackServer.Configuration) {
        self.responder = responder
        self.configuration = configuration
        watchdog = SlowClientWatchdog(headerDeadline: configuration.requestHeaderDeadline, limit: configuration.maximumConnections)
    }


    /// The access handler (two-call rule: respond only on the final call, or keep-alive is lost).
    func handle(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                uploadSize: UnsafeMutablePointer<Int>,
                requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let slot = requestSlot.pointee else {
            requestSlot.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
            requestsInFlight.enter()
            watchdog.requestStarted(connection)
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(slot).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            state.uploadedBytes += uploadSize.pointee
            uploadSize.pointee = 0
            return state.uploadedBytes <= configuration.maximumRequestBodyBytes ? .YES : .NO
        }
        if let parked = state.parked {
            guard let reply = parked.takeReply() else { return .NO }
            return queue(reply, on: connection, state: state)
        }
        let requestMethod: ServerRequest.Method
        if strcmp(method, "GET") == 0 {
            requestMethod = .get
        } else if strcmp(method, "HEAD") == 0 {
            requestMethod = .head
        } else {
            return queue(.status(405, headers: ["Allow": "GET, HEAD"]), on: connection, state: state)
        }
        state.method = requestMethod
        // A control byte in the path (a decoded %00 arrives as 0x7F, `cmhd_unescape_strict`): refused.
        if Self.hasControlByte(url) { return queue(.status(400), on: connection, state: state) }
        state.rangeHeader = Self.header("Range", connection)
        let request = ServerRequest(method: requestMethod, path: String(cString: url),
                                    query: Self.queryArguments(connection), rangeHeader: state.rangeHeader,
                                    ifRangeHeader: Self.header("If-Range", connection), ifNoneMatchHeader: Self.header("If-None-Match", connection))
        switch responder.reply(to: request) {
        case .response(let response):
            return queue(response, on: connection, state: state)
        case .closeConnection:
            return .NO
        case .park(let expiry, let register):
            let parked = ParkedRequest(connection: connection, context: self, deadline: .now + expiry)
            guard suspensions.suspend(parked, connection: connection) else {
                return queue(.status(503), on: connection, state: state)
            }
            state.parked = parked
            register(parked)
            return .YES
        }
    }

    /// Whether the C string `text` holds a control byte (0x01–0x1F, 0x7F).
    static func hasControlByte(_ text: UnsafePointer<CChar>) -> Bool {
        var pointer = text
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            if byte < 0x20 || byte == 0x7F { return true }
            pointer += 1
        }
        return false
    }

    /// The completion callback: releases the request state.
    func completed(connection: OpaquePointer?, requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let requestSlot, let slot = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        Unmanaged<RequestState>.fromOpaque(slot).release()
        requestsInFlight.leave()
        if let connection { watchdog.requestEnded(connection) }
    }

    private static func header(_ name: String, _ connection: OpaquePointer) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    private static func queryArguments(_ connection: OpaquePointer) -> [(name: String, value: String?)] {
        let box = QueryCollector()
        let pointer = Unmanaged.passUnretained(box).toOpaque()
        _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let box = Unmanaged<QueryCollector>.fromOpaque(cls).takeUnretainedValue()
            box.items.append((String(cString: key), value.map { String(cString: $0) }))
            return box.items.count < 64 ? .YES : .NO
        }, pointer)
        return withExtendedLifetime(box) { box.items }
    }
}

/// Collects query arguments during `MHD_get_connection_values`.
private final class QueryCollector {
    var items: [(name: String, value: String?)] = []
}
