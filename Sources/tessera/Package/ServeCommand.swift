#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlayback
import TesseraSupport

/// `tessera serve <dir> [--port N] [--host ADDRESS] [--threads N] [--log FILE] [--verify-media]`:
/// verifies the package, prints `serving http://HOST:PORT/master.m3u8` as its first line, serves
/// until SIGINT or SIGTERM, then exits 0.
struct ServeCommand: Sendable {
    let folder: URL
    let configuration: LoopbackServer.Configuration
    let logPath: String?
    let check: PackageStore.Scope

    static let usage = "tessera serve <dir> [--port <N>] [--host <loopback address>] [--threads <N>] [--log <file>] [--verify-media]"

    static let help = CommandHelp(
        name: "serve",
        synopsis: usage,
        summary: "Serves an offline package to a player over loopback: verifies it first (a package that fails is refused, exit 1), keeps every playlist in memory, serves only the package's files (GET, HEAD, single byte ranges, ETag and If-Range; GET / is a player page). The first line on stdout is `serving http://HOST:PORT/master.m3u8`; it serves until SIGINT or SIGTERM and then exits 0.",
        flags: [("--port <N>", "the port, 1–65535; default one the kernel picks"),
                ("--host <loopback address>", "the address to bind: 127.0.0.1, another address of 127.0.0.0/8 (127.0.0.2 for a second host), or ::1; anything else is refused; default 127.0.0.1"),
                ("--threads <N>", "server threads, 1–16; default 1 (a player on loopback needs no more)"),
                ("--log <file>", "append an access log (time, method, path, status, bytes); default none"),
                ("--verify-media", "at start-up, validate every media file too (as verify-package --media): a package with one cut short or malformed is refused; default sizes and digests only")],
        example: "tessera serve movie --port 8080 --log access.log")

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> ServeCommand {
        var rest = arguments
        var positional: [String] = []
        var configuration = LoopbackServer.Configuration()
        var logPath: String?
        var check = PackageStore.Scope.files
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
                    throw CommandLineArguments.UsageError(message: "--host takes a loopback address (127.0.0.0/8 or ::1), not \(text)")
                }
            case "--threads":
                let text = try value(argument)
                guard let count = Int(text), (1...16).contains(count) else { throw CommandLineArguments.UsageError(message: "--threads needs a number from 1 to 16, not \(text)") }
                configuration.threadCount = count
            case "--log": logPath = try value(argument)
            case "--verify-media": check = .media
            default:
                guard !argument.hasPrefix("-") else { throw CommandLineArguments.UsageError(message: "unknown option \(argument)") }
                positional.append(argument)
            }
        }
        guard positional.count == 1 else { throw CommandLineArguments.UsageError(message: "serve needs exactly one package folder") }
        return ServeCommand(folder: URL(fileURLWithPath: positional[0]), configuration: configuration, logPath: logPath, check: check)
    }

    func run() async -> Int32 {
        let server: PackageServer
        do {
            let log = try logPath.map { path throws(PlaybackError) in try AccessLog(path: path) }
            server = try PackageServer(folder: folder, configuration: configuration, log: log, check: check) { notice in
                Terminal.line("tessera serve: \(notice)", to: .standardError)
            }
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
