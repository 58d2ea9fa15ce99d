import Dispatch
import TesseraHTTP
import TesseraPlayback
import TesseraSupport

/// Serves the simulator's directory, applying the fault registered for this attempt, if any.
struct FaultInjectingResponder: HTTPResponder {
    let state: OriginState

    func reply(to request: ServerRequest) -> ServerReply {
        let attempt = state.log.withLock { log in
            let attempt = log.filter { $0.path == request.path }.count + 1
            log.append(.init(path: request.path, attempt: attempt, range: request.rangeHeader))
            return attempt
        }
        let fault = state.everywhere.withLock { $0 } ?? state.rules.withLock { rules in
            rules[request.path]?.last { $0.0.contains(attempt) }?.1
        }
        let normal = state.directory.response(for: request.path)
        guard let fault else { return .response(normal) }
        switch fault {
        case .status(let code, let headers):
            var fields = ResponseHeaders()
            for field in headers { fields.add(field.name, field.value) }
            return .response(.status(code, headers: fields))
        case .delay(let wait):
            let nanoseconds = Int(wait.components.seconds) * 1_000_000_000 + Int(wait.components.attoseconds / 1_000_000_000)
            return .park(expiry: wait + .seconds(30)) { parked in
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                    parked.complete(normal)
                }
            }
        case .truncate(let after):
            return .response(Self.broken(normal, request, cutAt: after, ending: .cut))
        case .stall(let after):
            return .response(Self.broken(normal, request, cutAt: after, ending: .stall))
        case .dropConnection:
            return .closeConnection
        case .hang:
            return .park(expiry: .seconds(3600)) { _ in }
        case .replaceBody(let bytes):
            return .response(ServerResponse(status: 200, headers: normal.headers, body: .bytes(bytes)))
        case .ignoreRange:
            guard case .file(let file) = normal.body else { return .response(normal) }
            return .response(ServerResponse(status: 200, headers: normal.headers,
                                            body: .stream(length: file.byteCount, producer: FaultBody(file: file, start: 0, cutAt: file.byteCount, ending: .complete))))
        case .unannouncedLength:
            guard case .file(let file) = normal.body else { return .response(normal) }
            return .response(ServerResponse(status: 200, headers: normal.headers,
                                            body: .stream(length: nil, producer: FaultBody(file: file, start: 0, cutAt: file.byteCount, ending: .complete))))
        case .trickle(let rate):
            guard case .file(let file) = normal.body else { return .response(normal) }
            return .response(ServerResponse(status: 200, headers: normal.headers,
                                            body: .stream(length: file.byteCount, producer: TrickleBody(file: file, bytesPerSecond: rate))))
        case .endless:
            return .response(ServerResponse(status: 200, headers: normal.headers, body: .stream(length: nil, producer: EndlessBody())))
        }
    }

    /// `normal`'s file (the part the request's range asks for, 206 then) with its full length
    /// announced, ending as `ending` says after `cutAt` bytes.
    private static func broken(_ normal: ServerResponse, _ request: ServerRequest, cutAt: UInt64, ending: FaultBody.Ending) -> ServerResponse {
        guard case .file(let file) = normal.body else { return normal }
        var headers = normal.headers
        var status = 200
        var start: UInt64 = 0
        var length = file.byteCount
        if case .partial(let offset, let count) = RangeResolution(header: request.rangeHeader, size: file.byteCount) {
            status = 206
            (start, length) = (offset, count)
            headers.add("Content-Range", "bytes \(offset)-\(offset + count - 1)/\(file.byteCount)")
        }
        return ServerResponse(status: status, headers: headers,
                              body: .stream(length: length, producer: FaultBody(file: file, start: start, cutAt: min(cutAt, length), ending: ending)))
    }
}
