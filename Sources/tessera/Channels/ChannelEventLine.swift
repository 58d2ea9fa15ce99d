#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraLive
import TesseraSupport

/// One channel event as a JSON line for `tessera record --channels --json`: `channel`, `event`
/// (`started`, `progress`, `notice`, `committed`, `failed`, `ended`), `time` (seconds since 1970)
/// and the event's own fields.
struct ChannelEventLine: Encodable {
    let channel: String
    let event: String
    let time: Double
    var destination: String?
    var attempt: Int?
    var segments: Int?
    var duration: Double?
    var gaps: Int?
    var bytes: UInt64?
    var edgeLag: Double?
    var message: String?
    var code: String?
    var retryIn: Double?
    var state: String?
    var report: RecordSummary.Document?

    /// The line of `event`; nil for what has no line (a plan). `text` gives a recording event's words.
    init?(_ event: ChannelEvent, time: Double, text: (LiveRecording.Event) -> String?) {
        channel = event.channel
        self.time = time
        switch event.kind {
        case .started(let destination, let attempt):
            self.event = "started"
            self.destination = destination.path
            self.attempt = attempt
        case .recording(.progress(let progress)):
            self.event = "progress"
            segments = progress.segments
            duration = progress.duration
            gaps = progress.gaps
            bytes = progress.bytes
            edgeLag = progress.edgeLag
        case .recording(let recording):
            guard let words = text(recording) else { return nil }
            self.event = "notice"
            message = words
        case .committed(let report):
            self.event = "committed"
            destination = report.destination.path
            self.report = RecordSummary.document(report)
        case .failed(let error, let retryIn):
            self.event = "failed"
            code = error.code.rawValue
            message = error.message
            self.retryIn = retryIn.map { $0.inSeconds }
        case .ended(let state):
            self.event = "ended"
            self.state = state.rawValue
        }
    }
}
