#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlaylist
import TesseraSupport

/// `tessera record <URL> -o <dir> [--duration S] [--from now|start] [--outage-limit S] [--variant …]
/// [--audio …] [--subtitles …] [--rolling S|--rolling-bytes N] [--snapshot-every S] [--parts [--preload-hints]] [--interstitials] [--json] [network]`: records a live stream into an offline package (docs/RECORD.md). A status
/// line on a terminal, plain lines otherwise; the last line `recorded: …` on stdout (stderr with
/// `--json`, whose stdout is then one JSON object). SIGINT or SIGTERM ends it cleanly and commits
/// (a second one abandons it). Exit 0 when a recording was committed, 3 when one was but the
/// source failed it first (an outage or no new segment past the limit, segments that could not be
/// fetched, a source that changed), 1 when none was, 2 on usage.
struct RecordCommand: Sendable {
    let url: URL
    let output: URL
    let options: LiveRecording.Options
    let json: Bool
    /// Seconds between in-progress snapshots (nil: only on SIGUSR1).
    let snapshotEvery: Duration?
    let network: NetworkOptions

    static let usage = "tessera record <URL> -o <dir> [--duration <seconds>] [--from now|start] [--outage-limit <seconds>] "
        + "\(SelectionOptions.variantUsage) \(SelectionOptions.renditionUsage) [--rolling <seconds>|--rolling-bytes <N>] [--snapshot-every <seconds>] [--parts [--preload-hints]] [--interstitials] [--fail-on-gap] [--on-restart continue|end] [--resume|--no-resume] [--max-playlist-bytes <N>] [--json] \(NetworkOptions.usage)"

    static let help = CommandHelp(
        name: "record",
        synopsis: usage + "\n       " + ChannelsCommand.usage,
        summary: "Records a live stream (a media playlist, or the variant chosen from a multivariant one with the audio, subtitle and alternative video renditions chosen from its groups, aligned with it) into an offline package that verify-package and serve take: each segment once, decrypted, through outages (10 minutes without any answer by default), media that left the window before it could be fetched listed as EXT-X-GAP — never joined over. A source that restarts (its numbering goes back, a segment listed again is not the one recorded) is recorded on behind a discontinuity, the time lost declared as a gap. Ends after --duration seconds of media, at EXT-X-ENDLIST, or on SIGINT/SIGTERM, and commits with one rename; nothing is at the destination before. An outage or a playlist listing no new segment for the outage limit ends it too, committing what came before. Exit 0 when a recording was committed, 3 when one was but the source failed it first, 1 when none was.",
        flags: [("-o, --output <dir>", "the package folder to create (must not exist)"),
                ("--duration <seconds>", "seconds of media to record, gaps included; default until ENDLIST or a signal"),
                ("--from now|start", "start at the newest segment, or at the window's first; default now"),
                ("--outage-limit <seconds>", "end (and commit) after this long without a new segment — failed requests or a playlist that stopped moving; default 600"),
                ("--rolling <seconds>", "rolling retention: keep at most this many seconds of media, evicting the oldest while recording; default keep everything"),
                ("--rolling-bytes <N>", "rolling retention: keep at most N bytes of media files"),
                ("--snapshot-every <seconds>", "publish what is recorded so far as <dir>.snapshot-<n>, a verified package, this often (and at each SIGUSR1); default only at SIGUSR1"),
                ("--parts", "LL-HLS: fetch each segment part by part as its parts are published, and write it from them once they prove to be it (else fetch it whole); parts never reach the package"),
                ("--preload-hints", "with --parts: also fetch the part an EXT-X-PRELOAD-HINT announces, kept once a playlist lists it"),
                ("--interstitials", "package the assets of Apple interstitial Date Ranges (X-ASSET-URI, X-ASSET-LIST) as local VOD packages under interstitials/, the ranges kept pointing at them; an interstitial that cannot be completed is omitted whole; default omit them"),
                ("--resume", "continue an interrupted recording of this source at -o, or fail (exit 1); default continue one when there is one"),
                ("--no-resume", "start over, discarding an interrupted recording at -o; default continue it"),
                ("--fail-on-gap", "fail (exit 1, nothing committed) at the first gap the recorder would cause; the origin's EXT-X-GAP do not count; default list the gap"),
                ("--on-restart continue|end", "when the source restarts: record the new source on behind a discontinuity, the time lost a gap (continue), or end there committing what came before (end, exit 0); default continue"),
                ("--max-playlist-bytes <N>", "the largest playlist read (a larger one fails its load with budget-exceeded, an outage while recording); default 16777216, under --channels 4194304 a channel"),
                ("--json", "stdout: one JSON object at the end (segments, duration, gaps, retries, bytes, evicted, snapshots, parts, interstitials, end)")]
            + ChannelsCommand.flags + SelectionOptions.variantHelp + SelectionOptions.renditionHelp + NetworkOptions.help,
        example: "tessera record https://live.example/master.m3u8 -o match --duration 3600\n  tessera record --channels channels.txt -o archive --rolling 86400 --status 127.0.0.1:8090")

    /// What `record`'s flags set: a whole command line's, or a channel's over the command line's
    /// (`ChannelsCommand`).
    struct Flags: Sendable {
        var output: String?
        var options = LiveRecording.Options()
        var json = false
        var snapshotEvery: Duration?
        var preloadHints = false
        var network = NetworkOptions()
        var selection = SelectionOptions(takesRenditions: true)
        /// `--max-playlist-bytes` (nil: not given).
        var maximumPlaylistBytes: Int?
    }

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> RecordCommand {
        let (flags, positional) = try parseFlags(arguments, onto: Flags())
        let url = try HTTPURLArgument.parse(positional, exactlyOne: "record needs exactly one playlist URL")
        guard let output = flags.output, !output.isEmpty else { throw CommandLineArguments.UsageError(message: "record needs -o <dir>") }
        return RecordCommand(url: url, output: URL(fileURLWithPath: output), options: try flags.recordingOptions(), json: flags.json,
                             snapshotEvery: flags.snapshotEvery, network: flags.network)
    }

    /// `arguments`' flags set over `base` (a flag given again replaces the value before it; the
    /// repeatable ones add), and the positional arguments; `extra` takes flags of its own first.
    static func parseFlags(_ arguments: [String], onto base: Flags,
                           extra: (String, inout [String]) throws(CommandLineArguments.UsageError) -> Bool = { _, _ in false })
        throws(CommandLineArguments.UsageError) -> (Flags, [String]) {
        var flags = base
        var rolling: String?
        let parsed = try FetchingArguments.parse(arguments, starting: FetchingArguments(network: base.network, selection: base.selection)) {
            argument, rest throws(CommandLineArguments.UsageError) in
            if try extra(argument, &rest) { return true }
            switch argument {
            case "-o", "--output": flags.output = try FetchingArguments.value(of: argument, &rest)
            case "--duration": flags.options.duration = try SecondsArgument.take(argument, from: &rest)
            case "--outage-limit": flags.options.outageLimit = try SecondsArgument.take(argument, from: &rest)
            case "--from":
                switch try FetchingArguments.value(of: argument, &rest) {
                case "now": flags.options.start = .now
                case "start": flags.options.start = .windowStart
                case let other: throw CommandLineArguments.UsageError(message: "--from takes now or start, not \(other)")
                }
            case "--rolling":
                guard rolling == nil else { throw CommandLineArguments.UsageError(message: "--rolling and --rolling-bytes are one choice") }
                rolling = argument
                flags.options.retention = .duration(try SecondsArgument.take(argument, from: &rest))
            case "--rolling-bytes":
                guard rolling == nil else { throw CommandLineArguments.UsageError(message: "--rolling and --rolling-bytes are one choice") }
                rolling = argument
                let text = try FetchingArguments.value(of: argument, &rest)
                guard let bytes = UInt64(text), bytes > 0 else { throw CommandLineArguments.UsageError(message: "--rolling-bytes needs a positive number of bytes, not \(text)") }
                flags.options.retention = .bytes(bytes)
            case "--max-playlist-bytes":
                let text = try FetchingArguments.value(of: argument, &rest)
                guard let bytes = Int(text), (4096...(1 << 30)).contains(bytes) else {
                    throw CommandLineArguments.UsageError(message: "--max-playlist-bytes needs a number of bytes from 4096 to 1073741824, not \(text)")
                }
                flags.maximumPlaylistBytes = bytes
            case "--snapshot-every": flags.snapshotEvery = try SecondsArgument.take(argument, from: &rest)
            case "--parts": flags.options.parts = flags.options.parts ?? RecordingParts()
            case "--interstitials": flags.options.interstitials = RecordingInterstitials()
            case "--preload-hints": flags.preloadHints = true
            case "--json": flags.json = true
            case "--fail-on-gap": flags.options.failOnGap = true
            case "--on-restart":
                switch try FetchingArguments.value(of: argument, &rest) {
                case "continue": flags.options.onRestart = .continue
                case "end": flags.options.onRestart = .end
                case let other: throw CommandLineArguments.UsageError(message: "--on-restart takes continue or end, not \(other)")
                }
            case "--resume": flags.options.resume = .required
            case "--no-resume": flags.options.resume = .never
            default: return false
            }
            return true
        }
        flags.network = parsed.network
        flags.selection = parsed.selection
        return (flags, parsed.positional)
    }

    func run() async -> Int32 {
        await network.withClient(entry: url) { client in await run(client) }
    }

    private func run(_ client: HLSClient) async -> Int32 {
        let recording = LiveRecording(url: url, destination: output, client: client, options: options)
        let control = RecordingControl()
        let status = RecordStatus(label: output.lastPathComponent, onRestart: options.onRestart)
        let snapshot: @Sendable () -> Void = {
            Task {
                // Only a refusal (eight outstanding) has no event of its own: a failed snapshot is
                // the `snapshotFailed` line already, and `cancelled` means the recording is over.
                do throws(HLSError) { _ = try await control.snapshot() } catch where error.code == .destinationBusy {
                    Terminal.line("snapshot refused: \(error.message)", to: .standardError)
                } catch {
                    // Reported as above (or the recording ended): nothing more to say.
                }
            }
        }
        let every = snapshotEvery
        let periodic = Task {
            guard let every else { return }
            // Real time between asks; each is taken at the next complete segment. The sleep only
            // throws when cancelled: the recording is over.
            while (try? await Task.sleep(for: every)) != nil { snapshot() }
        }
        let result = await SignalHandling.run(on: SIGUSR1, snapshot) {
            await SignalCancellation.run(onSignal: { control.stop() }) { () -> Result<RecordingReport, HLSError> in
                do throws(HLSError) {
                    return .success(try await recording.run(control: control) { event in status.show(event) })
                } catch {
                    return .failure(error)
                }
            }
        }
        periodic.cancel()
        status.finish()
        switch result {
        case .success(let report):
            let (why, line) = RecordSummary.line(report)
            if let why { Terminal.line(why, to: .standardError) }
            if let parts = report.parts { Terminal.line(RecordSummary.partsLine(parts), to: json ? .standardError : .standardOutput) }
            if let interstitials = report.interstitials {
                Terminal.line(RecordSummary.interstitialsLine(interstitials), to: json ? .standardError : .standardOutput)
            }
            if json {
                Terminal.line(line, to: .standardError)
                Terminal.line(RecordSummary.json(report))
            } else {
                Terminal.line(line)
            }
            if case .failed = report.end { return 3 }
            return 0
        case .failure(let error):
            Terminal.error(error.message)
            return 1
        }
    }
}

extension RecordCommand.Flags {
    /// The recording options the flags make (the selection and `--preload-hints` folded in).
    /// - Throws: a usage error for `--preload-hints` without `--parts`.
    func recordingOptions() throws(CommandLineArguments.UsageError) -> LiveRecording.Options {
        var options = options
        if preloadHints {
            guard options.parts != nil else { throw CommandLineArguments.UsageError(message: "--preload-hints needs --parts") }
            options.parts?.preloadHints = true
        }
        options.selection = selection.policy
        if let maximumPlaylistBytes { options.parser.limits.maximumBytes = maximumPlaylistBytes }
        return options
    }
}
