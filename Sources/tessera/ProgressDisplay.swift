#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import TesseraHLS
import TesseraHTTP
import TesseraSupport

/// Shows download progress: a redrawn bar with rate and ETA on a terminal, plain lines otherwise.
/// Thread-safe: the job reports from whatever thread it runs on.
final class ProgressDisplay: Sendable {
    private let interactive: Bool
    private let label: String
    private let start = ContinuousClock.now
    /// When the byte display last drew (nanoseconds since `start`); it redraws at most 10 times a second.
    private let lastDraw = Atomic<Int64>(-1_000_000_000)
    /// Bytes already received when the first download progress arrived (resumed work).
    private let downloadBaseline = Mutex<UInt64?>(nil)
    /// The resources done at the last plain milestone line.
    private let lastMilestone = Atomic<Int>(-1)

    init(label: String, interactive: Bool = Terminal.isInteractive) {
        self.label = label
        self.interactive = interactive
    }

    /// Byte progress of one transfer: a bar when the size is known, bytes and rate otherwise.
    func update(_ progress: TransferProgress) {
        let seconds = elapsedSeconds
        let now = Int64(seconds * 1e9)
        let done = progress.expected.map { progress.completed >= $0 } ?? false
        guard done || now - lastDraw.load(ordering: .relaxed) >= 100_000_000 else { return }
        lastDraw.store(now, ordering: .relaxed)
        let rate = seconds > 0 ? Double(progress.completed) / seconds : 0
        let amount = Self.bytes(UInt64(progress.completed))
        if interactive {
            var text = "\r\(label) "
            if let fraction = progress.fraction, let expected = progress.expected {
                let width = 24
                let filled = Int(Double(width) * fraction)
                text += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
                text += "\(amount)/\(Self.bytes(UInt64(expected))) \(Self.bytes(UInt64(rate)))/s"
                if rate > 0, !done { text += " ETA " + FixedDecimal.format(Double(expected - progress.completed) / rate, digits: 0) + "s" }
            } else {
                text += "\(amount) \(Self.bytes(UInt64(rate)))/s"
            }
            Terminal.write(text + "   " + (done ? "\n" : ""), to: .standardError)
        } else if done {
            Terminal.line("\(label): \(amount)", to: .standardError)
        }
    }

    /// Ends a byte display whose size was unknown.
    func finish() {
        if interactive { Terminal.write("\n", to: .standardError) }
    }

    private var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - start
        return elapsed.inSeconds
    }

    /// Resource progress of a download: bytes against the plan's total when known (determinate),
    /// else against an estimate from the resources written (their mean size times the plan's
    /// count), resources before any is written. The rate and the time left count the bytes
    /// received in this run, bodies still in flight included (not resumed ones).
    func update(_ progress: DownloadProgress, detail: String = "") {
        let seconds = elapsedSeconds
        let baseline = downloadBaseline.withLock { baseline -> UInt64 in
            if baseline == nil { baseline = progress.bytesReceived }
            return baseline ?? 0
        }
        let received = progress.bytesReceived >= baseline ? progress.bytesReceived - baseline : 0
        let rate = seconds > 0 ? Double(received) / seconds : 0
        let finished = progress.resourcesDone == progress.resourceCount
        guard interactive else {
            // A milestone once: progress also arrives between resources, as bytes come in.
            if Self.isMilestone(progress), lastMilestone.exchange(progress.resourcesDone, ordering: .relaxed) != progress.resourcesDone {
                Terminal.line("\(label): \(progress.resourcesDone)/\(progress.resourceCount) resources, "
                    + "\(Self.bytes(progress.bytesWritten)) written\(detail.isEmpty ? "" : " (\(detail))")", to: .standardError)
            }
            return
        }
        let expected = Self.expectedBytes(progress)
        let fraction = expected.map { min(1, Double(progress.bytesReceived) / Double(max(1, $0))) }
            ?? (progress.resourceCount == 0 ? 0 : Double(progress.resourcesDone) / Double(progress.resourceCount))
        let remaining = expected.flatMap { total in rate > 0 ? Double(total - min(total, progress.bytesReceived)) / rate : nil }
        let now = Int64(seconds * 1e9)
        guard finished || now - lastDraw.load(ordering: .relaxed) >= 100_000_000 else { return }
        lastDraw.store(now, ordering: .relaxed)
        let width = 24
        let filled = Int(Double(width) * fraction)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let eta = finished ? "" : remaining.map { " ETA " + FixedDecimal.format($0, digits: 0) + "s" } ?? ""
        Terminal.write("\r\(label) [\(bar)] \(progress.resourcesDone)/\(progress.resourceCount) "
            + "\(Self.bytes(progress.bytesReceived)) \(Self.bytes(UInt64(rate)))/s\(eta)\(detail.isEmpty ? "" : " " + detail)   ", to: .standardError)
        if finished { Terminal.write("\n", to: .standardError) }
    }

    /// The network bytes the whole job will take: the plan's total when every resource has a byte
    /// range, else the mean of the resources written so far times the plan's count (never less
    /// than what has arrived); nil before any resource is written.
    static func expectedBytes(_ progress: DownloadProgress) -> UInt64? {
        if let total = progress.totalBytes, total > 0 { return total }
        guard progress.resourcesDone > 0, progress.bytesFetched > 0 else { return nil }
        let estimate = Double(progress.bytesFetched) / Double(progress.resourcesDone) * Double(progress.resourceCount)
        return max(progress.bytesReceived, UInt64(estimate.rounded()))
    }

    /// Plain lines: at most about twenty per job, plus the start and the end.
    static func isMilestone(_ progress: DownloadProgress) -> Bool {
        let step = max(1, progress.resourceCount / 20)
        return progress.resourcesDone % step == 0 || progress.resourcesDone == progress.resourceCount
    }

    static func bytes(_ count: UInt64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : FixedDecimal.format(value, digits: 1) + " " + units[unit]
    }
}

