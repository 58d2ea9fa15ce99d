import Foundation
import TesseraHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraPlaylist
import TesseraSupport

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
        // The process ends here: the kernel reclaims a 100,000-segment model faster than tearing it
        // down object by object (output went out with write(2); nothing is buffered).
        exit(0)
    }

    /// Reads a regular file into memory in one copy, refusing files over `limit`.
    private func readFile(_ path: String, limit: Int) throws(LoadFailure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LoadFailure(message: "Cannot read \(path): \(String(cString: strerror(errno))).") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LoadFailure(message: "Cannot read \(path): not a regular file.")
        }
        let size = Int(info.st_size)
        guard size <= limit else { throw LoadFailure(message: "\(path) is \(size) bytes, over the \(limit)-byte playlist limit.") }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = read(fd, buffer.baseAddress! + done, size - done)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            failed = done != size
            count = done
        }
        guard !failed else { throw LoadFailure(message: "Cannot read \(path): it changed while being read.") }
        return bytes
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
        return (try readFile(path, limit: limit), URL(fileURLWithPath: path))
    }
}
