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
        let parsed: ParsedPlaylist
        do throws(LoadFailure) {
            parsed = try await load(parser)
        } catch {
            Terminal.error(error.message)
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

    /// Reads and parses the input: a file a megabyte at a time (the parser keeps only the line it
    /// reads, so a large playlist is not held twice), standard input and URLs whole.
    private func load(_ parser: PlaylistParser) async throws(LoadFailure) -> ParsedPlaylist {
        let limit = parser.limits.maximumBytes
        let bytes: [UInt8], url: URL?
        if source == "-" {
            guard let input = FileDescriptorIO.readAll(0, limit: limit) else {
                throw LoadFailure(message: "Standard input could not be read, or is over the \(limit)-byte playlist limit.")
            }
            (bytes, url) = (input, nil)
        } else if let entry = URL(string: source), let scheme = entry.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            (bytes, url) = try await fetch(entry, parser)
        } else {
            let path = source.hasPrefix("file://") ? (URL(string: source)?.path ?? source) : source
            return try parseFile(path, parser)
        }
        do { return try parser.parse(bytes, context: ParseContext(playlistURL: url)) } catch {
            throw LoadFailure(message: "\(redacted) was rejected: \(error)")
        }
    }

    private func fetch(_ url: URL, _ parser: PlaylistParser) async throws(LoadFailure) -> (bytes: [UInt8], url: URL?) {
        let transport: CurlTransport
        do { transport = try CurlTransport(configuration: try network.transport(entry: url)) } catch { throw LoadFailure(message: error.message) }
        defer { transport.shutdown() }
        let client = HLSClient(transport: transport, configuration: network.pipeline(entry: url, base: HLSClient.defaultConfiguration),
                               observer: RetryLine.print)
        do {
            return try await PlaylistLoader(client: client, parser: parser).fetchPlaylist(url)
        } catch {
            throw LoadFailure(message: error.message)
        }
    }

    private func parseFile(_ path: String, _ parser: PlaylistParser) throws(LoadFailure) -> ParsedPlaylist {
        let reader: RegularFileReader
        do { reader = try RegularFileReader(path: path, limit: parser.limits.maximumBytes) } catch { throw LoadFailure(message: error.message) }
        var readFailure: SupportError?
        let parsed: ParsedPlaylist
        do {
            parsed = try parser.parse(context: ParseContext(playlistURL: URL(fileURLWithPath: path))) { buffer in
                do throws(SupportError) { return try reader.read(appendingTo: &buffer, upTo: 1 << 20) } catch {
                    readFailure = error
                    return false
                }
            }
        } catch {
            throw LoadFailure(message: readFailure?.message ?? "\(redacted) was rejected: \(error)")
        }
        if let readFailure { throw LoadFailure(message: readFailure.message) }
        return parsed
    }
}
