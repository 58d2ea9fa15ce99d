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
        let fault = state.rules.withLock { rules in
            rules[request.path]?.last { $0.0.contains(attempt) }?.1
        }
        let normal = state.directory.response(for: request.path)
        guard let fault else { return .response(normal) }
        switch fault {
        case .status(let code, let headers):
            return .response(.status(code, headers: headers))
        case .delay(let wait):
            let nanoseconds = Int(wait.components.seconds) * 1_000_000_000 + Int(wait.components.attoseconds / 1_000_000_000)
            return .park(expiry: wait + .seconds(30)) { parked in
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                    parked.complete(normal)
                }
            }
        case .truncate(let after):
            var response = normal
            response.delivery = .truncated(after: after)
            return .response(response)
        case .stall(let after):
            var response = normal
            response.delivery = .stalled(after: after)
            return .response(response)
        case .dropConnection:
            return .dropConnection
        case .hang:
            return .park(expiry: .seconds(3600)) { _ in }
        case .replaceBody(let bytes):
            return .response(ServerResponse(status: 200, headers: normal.headers, body: .bytes(bytes)))
        case .ignoreRange:
            var response = normal
            response.rangeHandling = .ignore
            return .response(response)
        case .unannouncedLength:
            var response = normal
            response.delivery = .unannouncedLength
            return .response(response)
        }
    }
}
