import Synchronization
import TesseraLive
import TesseraSupport

/// The compact table `tessera record --channels` keeps at the bottom of a terminal: a summary
/// line and a row a channel (state, segments, gaps, lag behind the live edge, bytes, last error),
/// the troubled ones first, at most `maximumRows`; redrawn in place, event lines printed above it.
final class ChannelTable: Sendable {
    /// The most channel rows drawn (the rest are counted).
    static let maximumRows = 20

    private let drawn = Mutex(0)

    /// Prints `line` above the table, then draws `rows` again.
    func say(_ line: String, rows: [ChannelStatus]) {
        drawn.withLock { drawn in
            Terminal.write(Self.erase(drawn) + line + "\n", to: .standardError)
            drawn = Self.draw(rows, erasing: 0)
        }
    }

    /// Draws `rows` in place of the table drawn before.
    func redraw(_ rows: [ChannelStatus]) {
        drawn.withLock { drawn in drawn = Self.draw(rows, erasing: drawn) }
    }

    /// Leaves the table as it is, for lines that follow it.
    func finish() {
        drawn.withLock { $0 = 0 }
    }

    private static func erase(_ lines: Int) -> String { lines > 0 ? "\u{1B}[\(lines)F\u{1B}[J" : "" }

    private static func draw(_ rows: [ChannelStatus], erasing lines: Int) -> Int {
        let text = table(rows)
        Terminal.write(erase(lines) + text.joined(separator: "\n") + "\n", to: .standardError)
        return text.count
    }

    /// The table's lines.
    static func table(_ rows: [ChannelStatus]) -> [String] {
        let rank: [ChannelStatus.State: Int] = [.failed: 0, .retrying: 1, .waiting: 2, .recording: 3, .stopped: 4, .finished: 5]
        var counts: [ChannelStatus.State: Int] = [:]
        for row in rows { counts[row.state, default: 0] += 1 }
        let summary = "\(rows.count) channels: " + [ChannelStatus.State.recording, .retrying, .failed, .waiting, .finished, .stopped]
            .compactMap { state in counts[state].map { "\($0) \(state.rawValue)" } }.joined(separator: ", ")
        let shown = rows.enumerated().sorted { (rank[$0.element.state] ?? 9, $0.offset) < (rank[$1.element.state] ?? 9, $1.offset) }
            .prefix(maximumRows).map(\.element)
        var lines = [summary, pad("CHANNEL", 16) + pad("STATE", 10) + pad("SEGMENTS", 9, right: true) + pad("GAPS", 6, right: true)
                     + pad("LAG", 8, right: true) + pad("BYTES", 10, right: true) + "  LAST ERROR"]
        for row in shown {
            let lag = row.edgeLag.map { FixedDecimal.format($0, digits: 1) + " s" } ?? "-"
            let error = row.lastErrorCode.map { "\($0): \(row.lastError ?? "")" } ?? ""
            lines.append(pad(row.name, 16) + pad(row.state.rawValue, 10) + pad(String(row.segments), 9, right: true)
                         + pad(String(row.gaps), 6, right: true) + pad(lag, 8, right: true) + pad(ProgressDisplay.bytes(row.bytes), 10, right: true)
                         + "  " + String(error.prefix(60)))
        }
        if rows.count > shown.count { lines.append("… and \(rows.count - shown.count) more") }
        return lines
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let cut = text.count > width - 1 ? String(text.prefix(width - 2)) + "…" : text
        let room = String(repeating: " ", count: max(0, width - cut.count))
        return right ? room + cut : cut + room
    }
}
