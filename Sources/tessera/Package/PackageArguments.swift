#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// Parses `tessera package`'s arguments.
enum PackageArguments {
    static let usage = "tessera package <URL> -o <dir> \(SelectionOptions.variantUsage) \(SelectionOptions.renditionUsage) "
        + "[--iframes] [--parallel <N>] [--no-resume] [--dry-run] [--overwrite] [--no-steering] \(NetworkOptions.usage)"

    static let help = CommandHelp(
        name: "package",
        synopsis: usage,
        summary: "Makes an offline package of an HLS VOD presentation: the chosen variant with its audio and subtitle renditions (and, asked, an I-frame stream) as plaintext local files, local playlists and a master.m3u8 a player opens without the network, plus manifest.json and manifest-sha256.txt (sha256sum -c reads it). Written beside the destination and published whole; resumable after a crash. Exit 0, 1 on failure (the staging folder and its checkpoint stay for transient failures), 2 on usage errors.",
        flags: [("-o, --output <dir>", "the package folder to create (required)")] + SelectionOptions.variantHelp + SelectionOptions.renditionHelp + [
            ("--iframes", "add an I-frame stream (the variant's RESOLUTION, else the highest BANDWIDTH); default none"),
            ("--parallel <N>", "requests in flight, 1–32; default 8"),
            ("--no-resume", "ignore a checkpoint of an earlier run; default resume"),
            ("--dry-run", "plan only: the tracks, resources and bytes; no media, nothing written"),
            ("--overwrite", "replace an existing package at commit; default refuse"),
            ("--no-steering", "ignore the presentation's Content Steering (package from the initial pathway, no failover); default follow it")] + NetworkOptions.help,
        example: "tessera package https://cdn.example/master.m3u8 -o movie --audio lang:en,fr --subtitles all")

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> PackageCommand {
        var output: String?
        var options = PackageDownload.Options()
        var dryRun = false
        let parsed = try FetchingArguments.parse(arguments, takesRenditions: true) { argument, rest throws(CommandLineArguments.UsageError) in
            switch argument {
            case "-o", "--output": output = try FetchingArguments.value(of: argument, &rest)
            case "--iframes": options.iFrames = true
            case "--overwrite": options.overwrite = .replace
            case "--no-resume": options.resumes = false
            case "--dry-run": dryRun = true
            case "--no-steering": options.steering = false
            case "--parallel": options.parallelism = try FetchingArguments.parallelism(argument, &rest)
            default: return false
            }
            return true
        }
        let url = try HTTPURLArgument.parse(parsed.positional, exactlyOne: "package needs exactly one multivariant playlist URL")
        guard let output else { throw CommandLineArguments.UsageError(message: "package needs -o <dir>") }
        options.selection = parsed.selection.policy
        let network = parsed.network
        return PackageCommand(url: url, output: URL(fileURLWithPath: output), options: options, network: network, dryRun: dryRun)
    }
}
