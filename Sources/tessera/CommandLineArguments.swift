#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parsed command line.
enum CommandLineArguments {
    case download(DownloadCommand)
    case fetch(FetchCommand)
    case webSocket(WebSocketCommand)
    case validate(ValidateCommand)
    case inspect(InspectCommand)
    case graph(GraphCommand)
    case package(PackageCommand)
    case verifyPackage(VerifyPackageCommand)
    case serve(ServeCommand)
    case watch(WatchCommand)
    case record(RecordCommand)
    case channels(ChannelsCommand)
    case demo(DemoCommand)
    case help
    case commandHelp(CommandHelp)
    case version

    static let usage = """
    usage: \(CommandHelp.inspect.synopsis)
           \(GraphArguments.usage)
           \(DownloadArguments.usage)
           \(PackageArguments.usage)
           \(VerifyPackageCommand.usage)
           \(ServeCommand.usage)
           \(WatchCommand.usage)
           \(RecordCommand.usage)
           \(FetchArguments.usage)
           \(WebSocketCommand.usage)
           \(CommandHelp.validate.synopsis)
           \(CommandHelp.demo.synopsis)
           tessera help <command> | tessera <command> --help
           tessera --help | --version
    """

    /// A command line that cannot be understood.
    struct UsageError: Error {
        let message: String
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
        guard let verb = arguments.first else { throw UsageError(message: "no command given") }
        var rest = Array(arguments.dropFirst())
        if let help = CommandHelp.all[verb], rest.contains("--help") || rest.contains("-h") { return .commandHelp(help) }
        switch verb {
        case "download":
            return .download(try DownloadArguments.parse(rest))
        case "fetch":
            return .fetch(try FetchArguments.parse(rest))
        case "ws":
            return .webSocket(try WebSocketCommand.parse(rest))
        case "package":
            return .package(try PackageArguments.parse(rest))
        case "verify-package":
            return .verifyPackage(try VerifyPackageCommand.parse(rest))
        case "serve":
            return .serve(try ServeCommand.parse(rest))
        case "watch":
            return .watch(try WatchCommand.parse(rest))
        case "record":
            if rest.contains("--channels") { return .channels(try ChannelsCommand.parse(rest)) }
            return .record(try RecordCommand.parse(rest))
        case "validate":
            let json = rest.contains("--json")
            let positional = rest.filter { $0 != "--json" }
            if let unknown = positional.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
                throw UsageError(message: "unknown option \(unknown)")
            }
            guard positional.count == 1 else { throw UsageError(message: "validate needs exactly one file") }
            return .validate(ValidateCommand(path: positional[0], json: json))
        case "inspect":
            var json = false
            var strict = false
            var network = NetworkOptions()
            var positional: [String] = []
            while !rest.isEmpty {
                let argument = rest.removeFirst()
                if try network.parse(argument, &rest) { continue }
                switch argument {
                case "--json": json = true
                case "--strict": strict = true
                default:
                    guard !argument.hasPrefix("-") || argument == "-" else { throw UsageError(message: "unknown option \(argument)") }
                    positional.append(argument)
                }
            }
            guard positional.count == 1 else { throw UsageError(message: "inspect needs exactly one file, URL or -") }
            return .inspect(InspectCommand(source: positional[0], json: json, strict: strict, network: network))
        case "graph":
            return .graph(try GraphArguments.parse(rest))
        case "demo":
            var command = DemoCommand()
            while !rest.isEmpty {
                let argument = rest.removeFirst()
                switch argument {
                case "--fixtures":
                    guard !rest.isEmpty else { throw UsageError(message: "--fixtures needs a folder") }
                    command.fixtures = URL(fileURLWithPath: rest.removeFirst())
                case "--keep": command.keepOutput = true
                case "--allow-missing-players": command.allowsMissingPlayers = true
                case "--live-origin":
                    guard !rest.isEmpty else { throw UsageError(message: "--live-origin needs a path") }
                    command.liveOrigin = rest.removeFirst()
                default: throw UsageError(message: "unknown option \(argument)")
                }
            }
            return .demo(command)
        case "help":
            guard let name = rest.first else { return .help }
            guard let help = CommandHelp.all[name] else { throw UsageError(message: "no command \(name); commands: \(CommandHelp.all.keys.sorted().joined(separator: ", "))") }
            return .commandHelp(help)
        case "-h", "--help": return .help
        case "--version", "version": return .version
        default: throw UsageError(message: "unknown command \(verb)")
        }
    }

    func run() async -> Int32 {
        switch self {
        case .download(let command): return await command.run()
        case .fetch(let command): return await command.run()
        case .webSocket(let command): return await command.run()
        case .validate(let command): return await command.run()
        case .inspect(let command): return await command.run()
        case .graph(let command): return await command.run()
        case .package(let command): return await command.run()
        case .verifyPackage(let command): return await command.run()
        case .serve(let command): return await command.run()
        case .watch(let command): return await command.run()
        case .record(let command): return await command.run()
        case .channels(let command): return await command.run()
        case .demo(let command): return await command.run()
        case .help:
            Terminal.line(Self.usage)
            return 0
        case .commandHelp(let help):
            Terminal.line(help.text)
            return 0
        case .version:
            Terminal.line("tessera \(TesseraVersion.current)")
            return 0
        }
    }
}
