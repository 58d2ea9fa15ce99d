#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// Parses `tessera download`'s arguments.
enum DownloadArguments {
    static let usage = "tessera download <URL> -o <file> \(SelectionOptions.variantUsage) [--audio default|none|all|lang:<tags>|name:<NAME>] [--subtitles default|none|all|lang:<tags>|name:<NAME>] "
        + "[--subtitle-format vtt|srt] [--embed-subtitles] [--fragmented] [--allow-gaps] [--sha256] [--format \(DownloadOutput.formats)] [--parallel <N>] [--no-resume] [--dry-run] [--overwrite] [--no-steering] [--prefetch-session-keys] \(NetworkOptions.usage)"

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> DownloadCommand {
        var output: String?
        var options = SingleFileDownload.Options()
        var dryRun = false
        var format: String?
        var subtitleFormat: String?
        var fragmented = false
        var allowsGaps = false
        var embedsSubtitles = false
        var digest = false
        let parsed = try FetchingArguments.parse(arguments, takesRenditions: true) { argument, rest throws(CommandLineArguments.UsageError) in
            switch argument {
            case "-o", "--output": output = try FetchingArguments.value(of: argument, &rest)
            case "--overwrite": options.overwrite = .replace
            case "--no-resume": options.resumes = false
            case "--dry-run": dryRun = true
            case "--format": format = try FetchingArguments.value(of: argument, &rest)
            case "--subtitle-format": subtitleFormat = try FetchingArguments.value(of: argument, &rest)
            case "--fragmented": fragmented = true
            case "--allow-gaps": allowsGaps = true
            case "--embed-subtitles": embedsSubtitles = true
            case "--sha256": digest = true
            case "--no-steering": options.steering = false
            case "--prefetch-session-keys": options.prefetchSessionKeys = true
            case "--parallel": options.parallelism = try FetchingArguments.parallelism(argument, &rest)
            default: return false
            }
            return true
        }
        let url = try HTTPURLArgument.parse(parsed.positional, exactlyOne: "download needs exactly one playlist URL")
        options.variant = parsed.selection.policy.variant
        options.capabilities = parsed.selection.policy.capabilities
        guard let output else { throw usage("download needs -o <file>") }
        let file = URL(fileURLWithPath: output)
        let kind = try outputKind(of: file, format: format)
        let selection = parsed.selection.policy
        let defaults = SelectionPolicy()
        let name = file.pathExtension.isEmpty ? "a file without an extension" : "a .\(file.pathExtension) file"
        if !kind.choosesTracks, selection.audio != defaults.audio || selection.subtitles != defaults.subtitles || selection.video != defaults.video {
            throw usage("--audio, --subtitles and --video choose the tracks of an MP4, MPEG-TS or subtitles file (-o name.mp4, .m4v, .mov, .m4a, .ts, .m2ts, .vtt or .srt); \(name) takes the variant's own stream")
        }
        var sidecars = SubtitleFormat.webVTT
        if case .subtitles(let written) = kind {
            if selection.audio != defaults.audio { throw usage("--audio chooses MP4 audio tracks; \(name) holds subtitles alone") }
            if selection.subtitles.choice == .none { throw usage("--subtitles none leaves \(name) nothing to hold") }
            sidecars = written
        }
        if let subtitleFormat {
            guard let chosen = SubtitleFormat(fileExtension: subtitleFormat) else { throw usage("--subtitle-format takes vtt or srt, not \(subtitleFormat)") }
            switch kind {
            case .movie, .transportStream: sidecars = chosen
            case .subtitles(let written) where written == chosen: break
            default: throw usage("--subtitle-format names the format of the subtitle files beside a movie (-o name.mp4, .m4v, .mov, .ts or .m2ts); \(name) has none")
            }
        }
        if fragmented, kind != .movie, kind != .audio {
            throw usage("--fragmented lays out an MP4 (-o name.mp4, .m4v, .mov or .m4a); \(name) is not one")
        }
        if embedsSubtitles, kind != .movie {
            throw usage("--embed-subtitles puts subtitle tracks into a movie (-o name.mp4, .m4v or .mov); \(name) has none")
        }
        if embedsSubtitles, fragmented { throw usage("--embed-subtitles needs a progressive MP4: ffmpeg reads a fragmented file's timed text without its durations") }
        if embedsSubtitles, subtitleFormat != nil { throw usage("--subtitle-format names files beside the movie; with --embed-subtitles there are none") }
        if allowsGaps, !kind.choosesTracks {
            throw usage("--allow-gaps keeps EXT-X-GAP holes in an MP4, MPEG-TS or subtitles file; \(name) is assembled byte for byte and refuses them")
        }
        return DownloadCommand(playlistURL: url, output: file, kind: kind, subtitleFormat: sidecars, fragmented: fragmented, allowsGaps: allowsGaps,
                               embedsSubtitles: embedsSubtitles, digest: digest, options: options,
                               selection: selection, network: parsed.network, dryRun: dryRun)
    }

    /// What `file` is written as: its extension's output, else `format`'s, else the stream.
    /// - Throws: a usage error for an unknown format, or one the extension contradicts.
    private static func outputKind(of file: URL, format: String?) throws(CommandLineArguments.UsageError) -> DownloadOutput {
        let named = DownloadOutput(fileExtension: file.pathExtension)
        guard let format else { return named ?? .stream }
        guard let chosen = DownloadOutput(format: format) else { throw usage("--format takes \(DownloadOutput.formats), not \(format)") }
        if let named, named != chosen { throw usage("-o \(file.lastPathComponent) names another format than --format \(format)") }
        return chosen
    }

    private static func usage(_ message: String) -> CommandLineArguments.UsageError {
        CommandLineArguments.UsageError(message: message)
    }
}
