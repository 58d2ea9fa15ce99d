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
import TesseraPlayback
import TesseraSupport

/// `tessera record --channels <file> -o <dir> [--on-channel-failure retry|stop] [--status
/// ADDRESS:PORT] [record flags] [--json] [network]`: records every channel of a list in one
/// process (`ChannelRecorder`; docs/RECORD.md), each into `<dir>/NAME` as `tessera record` would.
/// SIGHUP reads the list again, SIGINT or SIGTERM commits every channel (a second abandons them,
/// their checkpoints kept), SIGUSR1 snapshots every channel recording. Exit 0 when every channel
/// committed a recording and none failed for good, 3 when some were committed but a channel
/// failed or committed nothing, 1 when none was, 2 on usage (a bad list included).
struct ChannelsCommand: Sendable {
    let list: URL
    let directory: URL
    let global: RecordCommand.Flags
    let onFailure: ChannelFailurePolicy
    let statusAddress: LoopbackAddress?
    let statusPort: UInt16

    static let usage = "tessera record --channels <file> -o <dir> [--on-channel-failure retry|stop] [--status <127.0.0.1:PORT>] [record flags, for every channel] [--json] \(NetworkOptions.usage)"

    static let flags: [(String, String)] = [
        ("--channels <file>", "record every channel of this list in one process, each into <dir>/NAME: a line `NAME URL [record flags]` (# comments; quoted as a shell does); SIGHUP reads it again"),
        ("--on-channel-failure retry|stop", "with --channels: a channel that fails is tried again after a backoff of 1 s doubling to 60 s (into NAME.2… once NAME is committed), or left failed; default retry"),
        ("--status <127.0.0.1:PORT>", "with --channels: serve /status (JSON) and / (a page with a row and an hour's health strip a channel) on this loopback address; port 0 picks one"),
    ]

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> ChannelsCommand {
        var list: String?
        var onFailure = ChannelFailurePolicy.retry()
        var status: (LoopbackAddress, UInt16)?
        let (flags, positional) = try RecordCommand.parseFlags(arguments, onto: RecordCommand.Flags()) { argument, rest throws(CommandLineArguments.UsageError) in
            switch argument {
            case "--channels": list = try FetchingArguments.value(of: argument, &rest)
            case "--on-channel-failure":
                switch try FetchingArguments.value(of: argument, &rest) {
                case "retry": onFailure = .retry()
                case "stop": onFailure = .stop
                case let other: throw CommandLineArguments.UsageError(message: "--on-channel-failure takes retry or stop, not \(other)")
                }
            case "--status": status = try statusAddress(try FetchingArguments.value(of: argument, &rest))
            default: return false
            }
            return true
        }
        guard let list, !list.isEmpty else { throw CommandLineArguments.UsageError(message: "--channels needs a file") }
        guard positional.isEmpty else { throw CommandLineArguments.UsageError(message: "record --channels takes no URL (\(positional[0])): each channel's is in its line") }
        guard let output = flags.output, !output.isEmpty else { throw CommandLineArguments.UsageError(message: "record --channels needs -o <dir>") }
        _ = try flags.recordingOptions()
        return ChannelsCommand(list: URL(fileURLWithPath: list), directory: URL(fileURLWithPath: output), global: flags, onFailure: onFailure,
                               statusAddress: status?.0, statusPort: status?.1 ?? 0)
    }

    /// `ADDRESS:PORT` of a loopback address (`127.0.0.1:8080`, `[::1]:0`).
    static func statusAddress(_ text: String) throws(CommandLineArguments.UsageError) -> (LoopbackAddress, UInt16) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw CommandLineArguments.UsageError(message: "--status takes ADDRESS:PORT on loopback (127.0.0.1:8080), not \(text)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        do throws(PlaybackError) { return (try LoopbackAddress(host), port) } catch { throw CommandLineArguments.UsageError(message: "--status: \(error.message)") }
    }

    func run() async -> Int32 {
        let lineup: ChannelLineup
        do throws(CommandLineArguments.UsageError) { lineup = try ChannelLineup.load(list, global: global) } catch {
            Terminal.error(error.message)
            return 2
        }
        let transport: CurlTransport
        do { transport = try CurlTransport(configuration: try lineup.transport(global: global.network)) } catch {
            Terminal.error(error.message)
            return 1
        }
        defer { transport.shutdown() }
        let now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        var options = ChannelRecorder.Options()
        options.onFailure = onFailure
        options.maximumPlaylistBytes = nil   // each line's own (ChannelLineup): its flag, the command's, else the default
        let recorder = ChannelRecorder(directory: directory, options: options)
        let output = ChannelOutput(json: global.json, interactive: Terminal.isInteractive, rows: { recorder.status }, now: now)
        output.use(lineup)
        var server: LoopbackServer?
        if let statusAddress {
            var configuration = LoopbackServer.Configuration()
            configuration.address = statusAddress
            configuration.port = statusPort
            do { server = try LoopbackServer(configuration: configuration, responder: ChannelStatusResponder(recorder: recorder, now: now)) } catch {
                Terminal.error("The status server could not start: \(error.message)")
                return 1
            }
            output.say("status: http://\(statusAddress.urlHost):\(server?.port ?? 0)/")
        }
        defer { server?.shutdown() }
        let session = ChannelSession(command: self, recorder: recorder, transport: transport, output: output, lineup: lineup)
        let ticker = Task { await session.tick() }
        await SignalHandling.run(on: SIGHUP, { session.reload() }) {
            await SignalHandling.run(on: SIGUSR1, { session.snapshotAll() }) {
                await SignalCancellation.run(onSignal: { recorder.stop() }) {
                    await recorder.run(lineup.channels(on: transport)) { event in output.show(event) }
                }
            }
        }
        ticker.cancel()
        output.tick()
        output.finish()
        return Self.end(recorder.status, directory: directory, json: global.json)
    }

    /// The last line and the exit status.
    private static func end(_ channels: [ChannelStatus], directory: URL, json: Bool) -> Int32 {
        let committed = channels.filter { $0.committed > 0 }.count
        let failed = channels.filter { $0.state == .failed }.count
        let recordings = channels.reduce(0) { $0 + $1.committed }
        let line = "channels: \(committed) of \(channels.count) recorded (\(recordings) recording\(recordings == 1 ? "" : "s") committed), "
            + "\(failed) failed, \(channels.count - committed) with nothing committed → \(directory.path)"
        if json {
            Terminal.line(line, to: .standardError)
            Terminal.line(JSONText.of(Summary(event: "summary", channels: channels)))
        } else {
            Terminal.line(line)
        }
        if committed == 0 { return 1 }
        return failed > 0 || committed < channels.count ? 3 : 0
    }

    private struct Summary: Encodable {
        let event: String
        let channels: [ChannelStatus]
    }
}
