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
    static let usage = "tessera download <URL> -o <file> \(SelectionOptions.variantUsage) "
        + "[--parallel <N>] [--no-resume] [--dry-run] [--overwrite] [--no-steering] [--prefetch-session-keys] \(NetworkOptions.usage)"

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> DownloadCommand {
        var rest = arguments
        var positional: [String] = []
        var output: String?
        var options = SingleFileDownload.Options()
        var network = NetworkOptions()
        var dryRun = false
        var selection = SelectionOptions(takesRenditions: false)
        while !rest.isEmpty {
            let argument = rest.removeFirst()
            if try network.parse(argument, &rest) { continue }
            if try selection.parse(argument, &rest) { continue }
            switch argument {
            case "-o", "--output": output = try value(of: argument, &rest)
            case "--overwrite": options.overwrite = .replace
            case "--no-resume": options.resumes = false
            case "--dry-run": dryRun = true
            case "--no-steering": options.steering = false
            case "--prefetch-session-keys": options.prefetchSessionKeys = true
            case "--parallel":
                let text = try value(of: argument, &rest)
                guard let count = Int(text), (1...32).contains(count) else { throw usage("--parallel needs a number from 1 to 32, not \(text)") }
                options.parallelism = count
            default:
                guard !argument.hasPrefix("-") else { throw usage("unknown option \(argument)") }
                positional.append(argument)
            }
        }
        guard positional.count == 1 else { throw usage("download needs exactly one playlist URL") }
        options.variant = selection.policy.variant
        options.capabilities = selection.policy.capabilities
        guard let output else { throw usage("download needs -o <file>") }
        guard let url = URL(string: positional[0]), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil else {
            throw usage("\(positional[0]) is not an http or https URL")
        }
        return DownloadCommand(playlistURL: url, output: URL(fileURLWithPath: output), options: options, network: network, dryRun: dryRun)
    }

    private static func value(of option: String, _ rest: inout [String]) throws(CommandLineArguments.UsageError) -> String {
        guard !rest.isEmpty else { throw usage("\(option) needs a value") }
        return rest.removeFirst()
    }

    private static func usage(_ message: String) -> CommandLineArguments.UsageError {
        CommandLineArguments.UsageError(message: message)
    }
}
