import Foundation
import TesseraHTTP
import TesseraPlaylist

/// `tessera inspect <file|URL> [--json] [--strict]`.
struct InspectCommand: Sendable {
    let source: String
    let json: Bool
    let strict: Bool

    func run() async -> Int32 {
        let parser = PlaylistParser(policy: strict ? .strict : .lenient)
        let loaded: (bytes: [UInt8], url: URL?)
        do {
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
        return 0
    }

    private var redacted: String {
        guard let url = URL(string: source), url.scheme != nil else { return source }
        return URLRedaction.redact(url)
    }

    /// A failure to read the input.
    struct LoadFailure: Error {
        let message: String
    }

    private func load(limit: Int) async throws(LoadFailure) -> (bytes: [UInt8], url: URL?) {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            let transport: CurlTransport
            do { transport = try CurlTransport() } catch { throw LoadFailure(message: error.message) }
            defer { transport.shutdown() }
            var request = HTTPRequest(url: url, purpose: .mediaPlaylist)
            request.limits.maximumBodyBytes = UInt64(limit)
            do {
                let response = try await transport.send(request)
                guard response.head.isSuccess else {
                    throw LoadFailure(message: "\(redacted) answered HTTP \(response.head.status).")
                }
                return (try await response.body.collect(upTo: limit), response.head.url)
            } catch let error as HTTPError {
                throw LoadFailure(message: error.message)
            } catch let error as LoadFailure {
                throw error
            } catch {
                throw LoadFailure(message: "\(error)")
            }
        }
        let path = source.hasPrefix("file://") ? (URL(string: source)?.path ?? source) : source
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw LoadFailure(message: "Cannot read \(path): no such file.")
        }
        if let size = attributes[.size] as? Int, size > limit {
            throw LoadFailure(message: "\(path) is \(size) bytes, over the \(limit)-byte playlist limit.")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadFailure(message: "Cannot read \(path).")
        }
        return ([UInt8](data), URL(fileURLWithPath: path))
    }
}
