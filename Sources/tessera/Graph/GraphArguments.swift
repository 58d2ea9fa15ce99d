#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// `tessera graph <URL|file> [--json] [--strict] [--fail-on warning|error] [--parallel N]
/// [--base URL] [network options]`.
enum GraphArguments {
    static let usage = "tessera graph <URL|file> [--json] [--strict] [--fail-on info|warning|error] [--authoring] [--parallel <N>] [--base <URL>] "
        + "\(SelectionOptions.variantUsage) \(SelectionOptions.renditionUsage) " + NetworkOptions.usage

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> GraphCommand {
        var rest = arguments
        var command = GraphCommand()
        var positional: [String] = []
        func value(_ flag: String) throws(CommandLineArguments.UsageError) -> String {
            guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "\(flag) needs a value") }
            return rest.removeFirst()
        }
        while !rest.isEmpty {
            let argument = rest.removeFirst()
            if try command.network.parse(argument, &rest) { continue }
            if try command.selection.parse(argument, &rest) { continue }
            switch argument {
            case "--json": command.json = true
            case "--strict": command.strict = true
            case "--authoring": command.authoring = true
            case "--fail-on":
                switch try value(argument) {
                case "warning": command.failOn = .warning
                case "error": command.failOn = .error
                case "info": command.failOn = .info
                case let other: throw CommandLineArguments.UsageError(message: "--fail-on takes info, warning or error, not \(other)")
                }
            case "--parallel":
                let text = try value(argument)
                guard let count = Int(text), (1...64).contains(count) else {
                    throw CommandLineArguments.UsageError(message: "--parallel takes 1 to 64, not \(text)")
                }
                command.parallelism = count
            case "--base":
                let text = try value(argument)
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
                    throw CommandLineArguments.UsageError(message: "--base takes an http, https or file URL")
                }
                command.base = url
            default:
                guard !argument.hasPrefix("-") else { throw CommandLineArguments.UsageError(message: "unknown option \(argument)") }
                positional.append(argument)
            }
        }
        guard positional.count == 1 else { throw CommandLineArguments.UsageError(message: "graph needs exactly one URL or file") }
        command.source = positional[0]
        return command
    }
}
