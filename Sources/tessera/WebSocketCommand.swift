#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// `tessera ws <URL> [-H …] [--allow-http] [--protocol <name>]… [network options]`
/// (CommandHelp.ws): a WebSocket session on standard input and output. Each line read is sent
/// as a text message; each message received is printed on its own line (text as sent, binary
/// as `base64:<…>`). End of input sends a normal close after `--linger` (default 1 s) for the
/// last answers. Exit 0 on a normal close (1000, 1001,
/// or a close with no code), 1 on any other end (said on standard error), 2 on usage errors.
struct WebSocketCommand: Sendable {
    static let usage = "tessera ws <URL> [--allow-http] [--protocol <name>]... [--linger <seconds>] [-H 'Name: value']... [--cacert <file>] "
        + "[--pin sha256//<base64>]... [--timeout <seconds>] [--retries <N>]"

    var url: URL
    var network = NetworkOptions()
    var allowsPlainText = false
    var protocols: [String] = []
    /// How long answers are awaited after the end of input, before the normal close.
    var linger: Duration = .seconds(1)

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> WebSocketCommand {
        var rest = arguments
        var positional: [String] = []
        var network = NetworkOptions()
        var allowsPlainText = false
        var protocols: [String] = []
        var linger = Duration.seconds(1)
        while !rest.isEmpty {
            let argument = rest.removeFirst()
            if try network.parse(argument, &rest) { continue }
            switch argument {
            case "--allow-http": allowsPlainText = true
            case "--protocol":
                guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "--protocol needs a name") }
                protocols.append(rest.removeFirst())
            case "--linger":
                guard let text = rest.first, let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
                    throw CommandLineArguments.UsageError(message: "--linger needs seconds from 0 to 3600")
                }
                rest.removeFirst()
                linger = .milliseconds(Int64(seconds * 1000))
            default:
                guard !argument.hasPrefix("-") else { throw CommandLineArguments.UsageError(message: "unknown option \(argument)") }
                positional.append(argument)
            }
        }
        guard positional.count == 1 else { throw CommandLineArguments.UsageError(message: "ws needs exactly one ws:// or wss:// URL") }
        guard let url = URL(string: positional[0]), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss", url.host != nil else {
            throw CommandLineArguments.UsageError(message: "\(positional[0]) is not a ws:// or wss:// URL")
        }
        if scheme == "ws", !allowsPlainText {
            throw CommandLineArguments.UsageError(message: "\(positional[0]) is plain-text WebSocket; pass --allow-http to connect anyway")
        }
        guard network.headerHosts.isEmpty else { throw CommandLineArguments.UsageError(message: "--header-host is for commands that follow links; ws sends -H to its one URL") }
        var command = WebSocketCommand(url: url)
        command.network = network
        command.allowsPlainText = allowsPlainText
        command.protocols = protocols
        command.linger = linger
        return command
    }

    func run() async -> Int32 {
        var configuration = WebSocketConfiguration()
        configuration.allowsPlainText = allowsPlainText
        if let timeout = network.timeout {
            configuration.connectTimeout = timeout
            configuration.handshakeTimeout = timeout
        }
        let session: WebSocketSession
        do throws(HTTPError) {
            let client = WebSocketClient(configuration: configuration, transport: try network.transport(entry: url))
            session = try WebSocketSession(client: client, url: url, headers: network.headers, protocols: protocols, retries: network.retries)
        } catch {
            Terminal.error(error.message)
            return 1
        }
        let maximumLineBytes = min(configuration.maximumMessageBytes, 16 << 20)
        let close = await SignalCancellation.run(onSignal: { session.close(.goingAway) }) {
            await session.run(lines: StandardInputLines(maximumLineBytes: maximumLineBytes), linger: linger)
        }
        if close.wasClean, [1000, 1001, 1005].contains(close.code.rawValue) { return 0 }
        Terminal.error("the WebSocket ended: \(close)")
        return 1
    }
}
