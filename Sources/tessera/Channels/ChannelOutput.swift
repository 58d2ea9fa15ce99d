#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import TesseraHLS
import TesseraLive
import TesseraSupport

/// What `tessera record --channels` says while it runs. On stderr: a line per channel event,
/// prefixed with the channel's name (`news: gap: …`), its progress every ten seconds of media —
/// or, on a terminal, the compact table (`ChannelTable`) kept below the lines instead. The
/// `recorded:` line of each committed recording on stdout. With `--json`, stdout is one JSON
/// line per event (`ChannelEventLine`) and every human line goes to stderr. Thread-safe.
final class ChannelOutput: Sendable {
    private let json: Bool
    private let table: ChannelTable?
    private let rows: @Sendable () -> [ChannelStatus]
    private let now: @Sendable () -> Double
    /// Each channel's words for its recording's events (and its progress lines off a terminal).
    private let statuses = Mutex<[String: RecordStatus]>([:])
    private let policies = Mutex<[String: LiveRecording.RestartPolicy]>([:])

    init(json: Bool, interactive: Bool, rows: @escaping @Sendable () -> [ChannelStatus], now: @escaping @Sendable () -> Double) {
        self.json = json
        table = interactive && !json ? ChannelTable() : nil
        self.rows = rows
        self.now = now
    }

    /// The channels' restart policies (for what their lines say), from the list in use.
    func use(_ lineup: ChannelLineup) {
        policies.withLock { policies in
            policies = Dictionary(lineup.lines.map { ($0.name, $0.options.onRestart) }, uniquingKeysWith: { first, _ in first })
        }
        let names = Set(lineup.lines.map(\.name))
        statuses.withLock { statuses in statuses = statuses.filter { names.contains($0.key) } }
    }

    func show(_ event: ChannelEvent) {
        let status = status(of: event.channel)
        if json, let line = ChannelEventLine(event, time: now(), text: { status.text(of: $0) }) { Terminal.line(JSONText.of(line)) }
        let name = event.channel
        switch event.kind {
        case .started(let destination, let attempt):
            say("\(name): recording into \(destination.path)" + (attempt > 1 ? " (try \(attempt))" : ""))
        case .recording(.progress(let progress)):
            if table == nil { status.show(.progress(progress)) }
        case .recording(let recording):
            if let words = status.text(of: recording) { say("\(name): \(words)") }
        case .committed(let report):
            let (why, line) = RecordSummary.line(report)
            if let why { say("\(name): \(why)") }
            if json || table != nil { say("\(name): \(line)") } else { Terminal.line("\(name): \(line)") }
        case .failed(let error, let retryIn):
            let next = retryIn.map { "; trying again in \(FixedDecimal.format($0.inSeconds, digits: 1)) s" }
            say("\(name): failed (\(error.code)): \(error.message)" + (next ?? "; not tried again"))
        case .ended(let state):
            say("\(name): \(state.rawValue)")
        }
    }

    /// With `--json`, a `memory` line (`ChannelMemoryLine`): what is live, the resident size, and
    /// the segment bodies among them.
    func memory(inUse: UInt64, resident: UInt64, bodies: UInt64) {
        guard json else { return }
        Terminal.line(JSONText.of(ChannelMemoryLine(time: now(), heapInUseBytes: inUse, residentBytes: resident, bodyBytes: bodies)))
    }

    /// Says `line` on stderr (above the table on a terminal).
    func say(_ line: String) {
        if let table { table.say(line, rows: rows()) } else { Terminal.line(line, to: .standardError) }
    }

    /// Draws the table again (on a terminal).
    func tick() { table?.redraw(rows()) }

    /// The table stays; what follows goes below it.
    func finish() { table?.finish() }

    private func status(of channel: String) -> RecordStatus {
        let policy = policies.withLock { $0[channel] } ?? .continue
        return statuses.withLock { statuses in
            if let status = statuses[channel] { return status }
            let status = RecordStatus(label: channel, onRestart: policy, interactive: false, prefixed: true)
            statuses[channel] = status
            return status
        }
    }
}
