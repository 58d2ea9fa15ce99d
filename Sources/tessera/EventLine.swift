#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP

/// One client event as a JSON line for `tessera fetch --events`: `request`, `kind`, `method`,
/// `url` (event form, already redacted), `elapsedMs`, and the kind's own fields.
struct EventLine: Encodable {
    let request: UInt64
    let kind: String
    let method: String
    let url: String
    let elapsedMs: Double
    var status: Int?
    var location: String?
    var attempt: Int?
    var delayMs: Double?
    var reason: String?
    var bytes: Int64?
    var code: String?

    init(_ event: HTTPEvent) {
        request = event.requestID
        method = event.method
        url = event.url
        elapsedMs = Self.milliseconds(event.elapsed)
        switch event.kind {
        case .start:
            kind = "start"
        case .retry(let attempt, let delay, let reason):
            kind = "retry"
            self.attempt = attempt
            delayMs = Self.milliseconds(delay)
            self.reason = reason
        case .redirect(let status, let location):
            kind = "redirect"
            self.status = status
            self.location = location
        case .response(let status):
            kind = "response"
            self.status = status
        case .finish(let bytes):
            kind = "finish"
            self.bytes = bytes
        case .failure(let code):
            kind = "failure"
            self.code = code.rawValue
        }
    }

    var json: String {
        JSONText.of(self)
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let c = duration.components
        return (Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15).rounded(toPlaces: 3)
    }
}

private extension Double {
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
