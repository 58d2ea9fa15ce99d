#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlayback
import TesseraSupport

/// `tessera serve <dir> [--port N] [--host 127.0.0.1|::1] [--log FILE]`: verifies the package,
/// prints `serving http://HOST:PORT/master.m3u8` as its first line, serves until SIGINT or
/// SIGTERM, then exits 0.
struct ServeCommand: Sendable {
    let folder: URL
    let configuration: LoopbackServer.Configuration
    let logPath: String?

    static let usage = "tessera serve <dir> [--port <N>] [--host 127.0.0.1|::1] [--threads <N>] [--log <file>]"

    static let help = CommandHelp(
        name: "serve",
        synopsis: usage,
        summary: "Serves an offline package to a player over loopback: verifies it first (a package that fails is refused, exit 1), keeps every playlist in memory, serves only the package's files (GET, HEAD, single byte ranges, ETag and If-Range; GET / is a player page). The first line on stdout is `serving http://HOST:PORT/master.m3u8`; it serves until SIGINT or SIGTERM and then exits 0.",
        flags: [("--port <N>", "the port, 1–65535; default one the kernel picks"),
                ("--host 127.0.0.1|::1", "the loopback address to bind; any other is refused; default 127.0.0.1"),
                ("--threads <N>", "server threads, 1–16; default 1 (a player on loopback needs no more)"),
                ("--log <file>", "append an access log (time, method, path, status, bytes); default none")],
        example: "tessera serve movie --port 8080 --log access.log")

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> ServeCommand {
        var rest = arguments
        var positional: [String] = []
        var configuration = LoopbackServer.Configuration()
        var logPath: String?
        func value(_ option: String) throws(CommandLineArguments.UsageError) -> String {
            guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "\(option) needs a value") }
            return rest.removeFirst()
        }
        while !rest.isEmpty {
            let argument = rest.removeFirst()
            switch argument {
            case "--port":
                let text = try value(argument)
                guard let port = UInt16(text), port > 0 else { throw CommandLineArguments.UsageError(message: "--port needs a number from 1 to 65535, not \(text)") }
                configuration.port = port
            case "--host":
                let text = try value(argument)
                do { configuration.address = try LoopbackAddress(text) } catch {
                    throw CommandLineArguments.UsageError(message: "--host takes 127.0.0.1 or ::1 (loopback only), not \(text)")
                }
            case "--threads":
                let text = try value(argument)
                guard let count = Int(text), (1...16).contains(count) else { throw CommandLineArguments.UsageError(message: "--threads needs a number from 1 to 16, not \(text)") }
                configuration.threadCount = count
            case "--log": logPath = try value(argument)
            default:
                guard !argument.hasPrefix("-") else { throw CommandLineArguments.UsageError(message: "unknown option \(argument)") }
                positional.append(argument)
            }
        }
        guard positional.count == 1 else { throw CommandLineArguments.UsageError(message: "serve needs exactly one package folder") }
        return ServeCommand(folder: URL(fileURLWithPath: positional[0]), configuration: configuration, logPath: logPath)
    }

    func run() async -> Int32 {
        let server: PackageServer
        do {
            let log = try logPath.map { path throws(PlaybackError) in try AccessLog(path: path) }
            server = try PackageServer(folder: folder, configuration: configuration, log: log)
        } catch {
            Terminal.error(error.message)
            return 1
        }
        Terminal.line("serving \(server.entryURL.absoluteString)")
        await SignalCancellation.run { await server.run() }
        server.shutdown()
        return 0
    }
}
