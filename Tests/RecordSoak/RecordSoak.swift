import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlayback
import TesseraSupport
import TesseraTestSupport

/// The recorder's memory soak (`Scripts/bench.sh record`): a `LiveRecording` with rolling
/// retention following a live origin that publishes `--bitrate` of media in `--segment`-second
/// segments, on a `ScaledClock` — `--hours` of stream in hours × 3600 / `--scale` real seconds.
/// The origin is `--url` (a `tessera-live-origin --scale` in its own process, so this one's
/// memory is the recorder's alone), else one in this process; several `--url`s are recorded at
/// once on one HTTP client (the isolation figure: the process's CPU and RSS, and each
/// recording's share). Prints one JSON line: segments, gaps, evictions, bytes, peak RSS (VmHWM),
/// the RSS before any recording, and CPU seconds. `--make-media DIR` writes the
/// segment bodies for a separate origin and exits.
@main
enum RecordSoak {
    static func main() async {
        var hours = 2.0, scale = 60, bitrate = 5_000_000, segment = 4, rolling = 600
        var folder = NSTemporaryDirectory()
        var urls: [URL] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let flag = arguments.popFirst() {
            let value = arguments.popFirst() ?? ""
            switch flag {
            case "--hours": hours = Double(value) ?? hours
            case "--scale": scale = Int(value) ?? scale
            case "--bitrate": bitrate = Int(value) ?? bitrate
            case "--segment": segment = Int(value) ?? segment
            case "--rolling": rolling = Int(value) ?? rolling
            case "--folder": folder = value
            case "--url": if let url = URL(string: value) { urls.append(url) }
            case "--make-media":
                do {
                    try FileManager.default.createDirectory(atPath: value, withIntermediateDirectories: true)
                    for (index, body) in try media(bitrate: bitrate, segment: segment).enumerated() {
                        try Data(body).write(to: URL(fileURLWithPath: value + "/seg_\(index).ts"))
                    }
                } catch {
                    FileHandle.standardError.write(Data("tessera-record-soak: the media cannot be written to \(value): \(error)\n".utf8))
                    exit(1)
                }
                return
            default:
                FileHandle.standardError.write(Data("usage: tessera-record-soak [--hours 2] [--scale 60] [--bitrate 5000000] [--segment 4] [--rolling 600] [--folder DIR] [--url LIVE-URL] [--make-media DIR]\n".utf8))
                exit(2)
            }
        }
        do { try await run(hours: hours, scale: scale, bitrate: bitrate, segment: segment, rolling: rolling, folder: folder, urls: urls) } catch {
            FileHandle.standardError.write(Data("tessera-record-soak: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(hours: Double, scale: Int, bitrate: Int, segment: Int, rolling: Int, folder: String, urls: [URL]) async throws {
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.partsPerSegment = segment
        configuration.window = 30
        configuration.canSkipUntil = nil
        configuration.segmentExtension = "ts"
        let origin = urls.isEmpty ? LiveOrigin(configuration, published: segment * 6, media: try media(bitrate: bitrate, segment: segment)) : nil
        let host = try origin.map { try LiveOriginHost($0) }
        let clock = ScaledClock(scale: scale)
        let root = URL(fileURLWithPath: folder).appendingPathComponent("tessera-soak-\(getpid())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // Best effort: the folder is the caller's scratch space (the bench removes its whole work folder).
        defer { try? FileManager.default.removeItem(at: root) }
        var options = LiveRecording.Options()
        options.duration = .seconds(Int(hours * 3600))
        options.retention = .duration(.seconds(rolling))
        let client = HLSClient(transport: try host?.transport ?? CurlTransport.loopback(), clock: clock)
        let lives = urls.isEmpty ? host.map { [$0.playlistURL] } ?? [] : urls
        let baseline = Self.status("VmRSS:")
        // A part (one scaled second) at a time, on absolute deadlines of the scaled clock.
        let publishing = Task {
            var second = 0
            while !Task.isCancelled, let origin {
                second += 1
                do { try await clock.sleep(until: ScaledClock.Instant(offset: .seconds(second)), tolerance: nil) } catch { return }
                origin.advance(parts: 1)
            }
        }
        let sampler = Task {
            var peak = 0
            while !Task.isCancelled {
                peak = max(peak, Self.status("VmRSS:"))
                try? await Task.sleep(for: .milliseconds(200))    // throws only when cancelled: the loop ends then
            }
            return peak
        }
        guard baseline > 0 else { throw SoakError(message: "/proc/self/status gives no VmRSS: no memory figure can be measured") }
        let started = ContinuousClock.now
        let reports = try await withThrowingTaskGroup(of: RecordingReport.self) { group in
            for (index, live) in lives.enumerated() {
                let recording = LiveRecording(url: live, destination: root.appendingPathComponent("rec-\(index)"), client: client, options: options)
                group.addTask { try await recording.run() }
            }
            var reports: [RecordingReport] = []
            for try await report in group { reports.append(report) }
            return reports
        }
        let real = ContinuousClock.now - started
        guard let report = reports.first else { return }
        publishing.cancel()
        sampler.cancel()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let line = "{\"hours\":\(hours),\"scale\":\(scale),\"bitrate\":\(bitrate),\"origin\":\"\(urls.isEmpty ? "in-process" : "separate")\","
            + "\"recordings\":\(reports.count),\"allSegments\":\(reports.map(\.segments)),\"allGaps\":\(reports.map(\.gaps)),\"baselineRSSKiB\":\(baseline),"
            + "\"segments\":\(report.segments),\"gaps\":\(report.gaps),\"evicted\":\(report.evicted),\"keptSeconds\":\(report.duration),"
            + "\"bytesKept\":\(report.bytes),\"bytesEvicted\":\(report.evictedBytes),\"end\":\"\(report.end)\","
            + "\"realSeconds\":\(Double(real.components.seconds) + Double(real.components.attoseconds) / 1e18),"
            + "\"peakRSSKiB\":\(Self.status("VmHWM:")),\"sampledRSSKiB\":\(await sampler.value),\"cpuSeconds\":\(cpu)}"
        guard Self.status("VmHWM:") > 0 else { throw SoakError(message: "/proc/self/status gives no VmHWM: no peak figure can be reported") }
        print(line)
    }

    struct SoakError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Four distinct bodies of one segment's bytes at `bitrate`, cycled: valid MPEG-TS (a
    /// recording checks each segment as media) — the SDT, PAT and PMT of a fixture segment, then
    /// null packets (PID 0x1FFF) whose payloads differ from body to body.
    /// - Throws: when the fixture cannot be read (bodies without its tables are not valid media).
    static func media(bitrate: Int, segment: Int) throws -> [[UInt8]] {
        let packets = max(4, bitrate / 8 * segment / 188)
        let tables = Array(try FixtureStore.bytes("a_ts_vod/seg_000.ts").prefix(3 * 188))
        return (0..<4).map { index in
            var body = tables
            body.reserveCapacity(packets * 188)
            while body.count < packets * 188 {
                body += [0x47, 0x1F, 0xFF, 0x10] + [UInt8](repeating: UInt8(truncatingIfNeeded: index &* 31 &+ body.count / 188), count: 184)
            }
            return body
        }
    }

    /// A `/proc/self/status` field in KiB (0 when unreadable: the callers refuse to report it).
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.dropFirst(field.count).filter(\.isNumber)) ?? 0
        }
        return 0
    }
}
