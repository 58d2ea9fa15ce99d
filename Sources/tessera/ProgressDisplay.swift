import Foundation
import TesseraHLS

/// Shows download progress: a redrawn bar with rate and ETA on a terminal, plain lines otherwise.
/// Thread-safe: the job reports from whatever thread it runs on.
final class ProgressDisplay: Sendable {
    private let interactive: Bool
    private let label: String
    private let start = ContinuousClock.now

    init(label: String, interactive: Bool = Terminal.isInteractive) {
        self.label = label
        self.interactive = interactive
    }

    func update(_ progress: DownloadProgress) {
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(progress.bytesWritten) / seconds : 0
        if interactive {
            let width = 24
            let filled = progress.resourceCount == 0 ? 0 : width * progress.resourcesDone / progress.resourceCount
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let remaining = progress.resourcesDone == 0 ? nil
                : seconds / Double(progress.resourcesDone) * Double(progress.resourceCount - progress.resourcesDone)
            let eta = remaining.map { String(format: " ETA %.0fs", $0) } ?? ""
            Terminal.write("\r\(label) [\(bar)] \(progress.resourcesDone)/\(progress.resourceCount) "
                + "\(Self.bytes(progress.bytesWritten)) \(Self.bytes(UInt64(rate)))/s\(eta)   ", to: .standardError)
            if progress.resourcesDone == progress.resourceCount { Terminal.write("\n", to: .standardError) }
        } else if Self.isMilestone(progress) {
            Terminal.line("\(label): \(progress.resourcesDone)/\(progress.resourceCount) segments, "
                + "\(Self.bytes(progress.bytesWritten))", to: .standardError)
        }
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
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }
}

