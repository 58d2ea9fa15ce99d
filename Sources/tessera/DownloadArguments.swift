#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraSupport

/// Parses `tessera download`'s arguments.
enum DownloadArguments {
    static let usage = "tessera download <URL> -o <file> \(SelectionOptions.variantUsage) [--audio default|none|all|lang:<tags>|name:<NAME>] [--subtitles default|none|all|lang:<tags>|name:<NAME>] "
        + "[--parallel <N>] [--no-resume] [--dry-run] [--overwrite] [--no-steering] [--prefetch-session-keys] \(NetworkOptions.usage)"

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> DownloadCommand {
        var output: String?
        var options = SingleFileDownload.Options()
        var dryRun = false
        let parsed = try FetchingArguments.parse(arguments, takesRenditions: true) { argument, rest throws(CommandLineArguments.UsageError) in
            switch argument {
            case "-o", "--output": output = try FetchingArguments.value(of: argument, &rest)
            case "--overwrite": options.overwrite = .replace
            case "--no-resume": options.resumes = false
            case "--dry-run": dryRun = true
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
        let selection = parsed.selection.policy
        let movie = DownloadCommand.movieExtensions.contains(file.pathExtension.lowercased())
        if !movie, selection.audio != SelectionPolicy().audio || selection.subtitles != SelectionPolicy().subtitles || selection.video != SelectionPolicy().video {
            throw usage("--audio, --subtitles and --video choose the tracks of an MP4 file (-o name.mp4, .m4v or .mov); a \(file.pathExtension.isEmpty ? "file without an extension" : "." + file.pathExtension + " file") takes the variant's own stream")
        }
        return DownloadCommand(playlistURL: url, output: file, options: options, selection: selection, network: parsed.network, dryRun: dryRun)
    }

    private static func usage(_ message: String) -> CommandLineArguments.UsageError {
        CommandLineArguments.UsageError(message: message)
    }
}
