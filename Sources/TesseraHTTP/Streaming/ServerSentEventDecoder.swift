/// An incremental `text/event-stream` decoder (WHATWG HTML §9.2.6): feed it body chunks as they
/// arrive, in any split, and it returns the events each chunk completes.
///
/// Lines end in CRLF, LF or CR (a CRLF split across chunks counts once); a leading BOM is
/// dropped; comments and unknown fields are ignored; an `id` containing NUL is ignored; `retry`
/// is kept only when all digits. Line and event sizes are bounded, so a server that never ends a
/// line cannot grow memory without limit.
public struct ServerSentEventDecoder: Sendable {
    /// The most bytes one line or one event's data may hold. Default 1 MiB.
    public let maximumBytes: Int
    /// The reconnection time the stream last asked for, in milliseconds.
    public private(set) var retryMilliseconds: UInt64?

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var lastEventID = ""
    private var atStart = true
    private var skipLF = false

    /// A decoder with the given bound.
    public init(maximumBytes: Int = 1 << 20) {
        self.maximumBytes = maximumBytes
    }

    /// Decodes a chunk and returns the events it completes.
    /// - Throws: `protocol` (`event-too-large`) when a line or an event exceeds `maximumBytes`.
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws(HTTPError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if skipLF {
                skipLF = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A:
                if let event = try endLine() { events.append(event) }
            case 0x0D:
                skipLF = true
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < maximumBytes else { throw Self.tooLarge(maximumBytes) }
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the stream: an event without its blank line is discarded, as the standard says.
    public mutating func finish() {
        line.removeAll()
        data.removeAll()
        hasData = false
        eventType = ""
    }

    private mutating func endLine() throws(HTTPError) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        if line.isEmpty { return dispatch() }
        if line[0] == 0x3A { return nil }   // comment
        let colon = line.firstIndex(of: 0x3A)
        let name = String(decoding: line[..<(colon ?? line.count)], as: UTF8.self)
        var valueStart = colon.map { $0 + 1 } ?? line.count
        if valueStart < line.count, line[valueStart] == 0x20 { valueStart += 1 }
        let value = line[valueStart...]
        switch name {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count + 1 <= maximumBytes else { throw Self.tooLarge(maximumBytes) }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                retryMilliseconds = UInt64(String(decoding: value, as: UTF8.self)) ?? UInt64.max
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType,
                               data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID)
    }

    private static func tooLarge(_ limit: Int) -> HTTPError {
        HTTPError(.protocol, code: .eventTooLarge, "A server-sent event line or event exceeded \(limit) bytes.")
    }
}
