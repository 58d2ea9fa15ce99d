#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlaylist

/// A channel list as `tessera record --channels` records it: each line's flags set over the
/// command line's (a flag on the line replaces the command line's value; `-H`, `--header-host`,
/// `--pin` and `--codecs` add), read exactly as `tessera record` reads them. Flags of the whole
/// command (`-o`, `--json`, `--channels`, `--status`, `--on-channel-failure`, `--cacert`) are
/// refused on a line.
struct ChannelLineup: Sendable {
    /// One channel's settings.
    struct Line: Sendable {
        let name: String
        let url: URL
        let flags: RecordCommand.Flags
        let options: LiveRecording.Options
        /// The URL and the line's flags: another revision restarts the channel.
        let revision: String
    }

    let lines: [Line]

    /// Flags of the whole command, not of a channel.
    static let commandOnly: Set<String> = ["-o", "--output", "--json", "--channels", "--status", "--on-channel-failure", "--cacert"]

    /// The list at `path`, its lines' flags over `global`.
    /// - Throws: a usage error naming the line (the list's format, or a flag).
    static func load(_ path: URL, global: RecordCommand.Flags) throws(CommandLineArguments.UsageError) -> ChannelLineup {
        let list: ChannelList
        do throws(HLSError) { list = try ChannelList.load(path) } catch { throw CommandLineArguments.UsageError(message: error.message) }
        guard !list.entries.isEmpty else { throw CommandLineArguments.UsageError(message: "The channel list \(path.path) names no channel.") }
        var lines: [Line] = []
        for entry in list.entries {
            do throws(CommandLineArguments.UsageError) {
                let (flags, positional) = try RecordCommand.parseFlags(entry.arguments, onto: global) { argument, _ throws(CommandLineArguments.UsageError) in
                    guard !commandOnly.contains(argument) else {
                        throw CommandLineArguments.UsageError(message: "\(argument) is for the whole command, not one channel")
                    }
                    return false
                }
                guard positional.isEmpty else { throw CommandLineArguments.UsageError(message: "\(positional[0]) is not a flag (one URL a line)") }
                var options = try flags.recordingOptions()
                // A channel reads at most the recorder's default of playlist unless its line or the command says.
                if flags.maximumPlaylistBytes == nil, let most = ChannelRecorder.Options().maximumPlaylistBytes { options.parser.limits.maximumBytes = most }
                lines.append(Line(name: entry.name, url: entry.url, flags: flags, options: options,
                                  revision: ([entry.url.absoluteString] + entry.arguments).joined(separator: "\u{0}")))
            } catch {
                throw CommandLineArguments.UsageError(message: "Line \(entry.line) of \(path.lastPathComponent) (\(entry.name)): \(error.message)")
            }
        }
        return ChannelLineup(lines: lines)
    }

    /// The public-key pins of every channel's entry host (`--pin`), by host.
    var pins: [String: [String]] {
        var pins: [String: [String]] = [:]
        for line in lines where !line.flags.network.pins.isEmpty {
            if let host = line.url.host?.lowercased() { pins[host, default: []] += line.flags.network.pins.filter { !(pins[host] ?? []).contains($0) } }
        }
        return pins
    }

    /// The one transport's configuration: `global`'s trust, every channel's pins, and room for two
    /// connections a channel (a playlist and a segment at once, most on one origin) — at least the
    /// transport's defaults, at most 256 to a host and 1,024 in all.
    /// - Throws: `bad-pin`.
    func transport(global: NetworkOptions) throws(HTTPError) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = min(256, max(configuration.maximumConnectionsPerHost, 2 * lines.count))
        configuration.maximumConnections = min(1024, max(configuration.maximumConnections, 2 * lines.count))
        configuration.certificateAuthorities = global.certificateAuthorities
        for (host, pins) in pins.sorted(by: { $0.key < $1.key }) { try configuration.pins.pin(host, pins) }
        return configuration
    }

    /// The channels, each with its own client on `transport` (its header fields scoped to its own
    /// entry's origin, its retries and timeouts).
    func channels(on transport: any HTTPTransport) -> [RecordingChannel] {
        lines.compactMap { line in
            let client = HLSClient(transport: transport, configuration: line.flags.network.pipeline(entry: line.url, base: HLSClient.defaultConfiguration))
            // Every name was checked when the list was read.
            return try? RecordingChannel(name: line.name, url: line.url, client: client, options: line.options, revision: line.revision)
        }
    }
}
