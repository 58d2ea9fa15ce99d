#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tessera inspect <file|URL|-> [--json] [--strict] [network options]` (CommandHelp.inspect):
/// a URL is fetched through the HLS client (safe redirects, retries said on stderr, the
/// caller's header fields, trust and pins), `-` reads standard input.
struct InspectCommand: Sendable {
    let source: String
    let json: Bool
    let strict: Bool
    var network = NetworkOptions()

    func run() async -> Int32 {
        let parser = PlaylistParser(policy: strict ? .strict : .lenient)
        let loaded: (bytes: [UInt8], url: URL?)
        do throws(LoadFailure) {
            loaded = try await load(limit: parser.limits.maximumBytes)
        } catch {
            Terminal.error(error.message)
            return 1
        }
        let parsed: ParsedPlaylist
        do {
            parsed = try parser.parse(loaded.bytes, context: ParseContext(playlistURL: loaded.url))
        } catch {
            Terminal.error("\(redacted) was rejected: \(error)")
            return 1
        }
        if json {
            PlaylistJSON.write(parsed, newline: true) { Terminal.writeAll($0) }
        } else {
            for line in PlaylistSummary.lines(parsed, source: redacted) { Terminal.line(line) }
        }
        // The process ends here: the kernel reclaims a 100,000-segment model faster than tearing it
        // down object by object (output went out with write(2); nothing is buffered).
        exit(0)
    }

    private var redacted: String {
        if source == "-" { return "standard input" }
        guard let url = URL(string: source), url.scheme != nil else { return source }
        return URLRedaction.redact(url)
    }

    /// A failure to read the input.
    struct LoadFailure: Error {
        let message: String
    }

    private func load(limit: Int) async throws(LoadFailure) -> (bytes: [UInt8], url: URL?) {
        if source == "-" {
            guard let bytes = FileDescriptorIO.readAll(0, limit: limit) else {
                throw LoadFailure(message: "Standard input could not be read, or is over the \(limit)-byte playlist limit.")
            }
            return (bytes, nil)
        }
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let transport: CurlTransport
            do { transport = try CurlTransport(configuration: try network.transport(entry: url)) } catch { throw LoadFailure(message: error.message) }
            defer { transport.shutdown() }
            let client = HLSClient(transport: transport, configuration: network.pipeline(entry: url, base: HLSClient.defaultConfiguration),
                                   observer: RetryLine.print)
            do {
                return try await PlaylistLoader(client: client, parser: PlaylistParser(policy: strict ? .strict : .lenient)).fetchPlaylist(url)
            } catch {
                throw LoadFailure(message: error.message)
            }
        }
        let path = source.hasPrefix("file://") ? (URL(string: source)?.path ?? source) : source
        do { return (try FileDescriptorIO.readRegularFile(path, limit: limit), URL(fileURLWithPath: path)) } catch {
            throw LoadFailure(message: error.message)
        }
    }
}
