import Foundation
import TesseraHTTP
import TesseraSupport

/// `tessera fetch <URL> [-o file] [-r start-end] [-H 'Name: value']... [--cacert file]
/// [--pin sha256//…]... [--retry N] [--allow-http] [--events] [--overwrite]`: one request through
/// the client pipeline and its policies. The body goes to stdout, or atomically to `-o`. Any
/// status but 2xx fails (exit 1).
struct FetchCommand: Sendable {
    var url: URL
    var output: URL?
    var range: ByteRange?
    var headers = HTTPHeaders()
    var certificateAuthorities: URL?
    var pins: [String] = []
    var retries: Int?
    var allowsHTTP = false
    var showsEvents = false
    var overwrite = false

    /// Largest body fetched: the library's 256 MiB default is for API calls, not a download tool.
    static let maximumBodyBytes: UInt64 = 1 << 40

    func run() async -> Int32 {
        let client: HTTPClient
        let request: HTTPRequest
        do throws(HTTPError) {
            client = try makeClient()
            request = makeRequest(client.configuration)
        } catch {
            Terminal.error(error.message)
            return 1
        }
        let events = showsEvents ? client.events : nil   // read before sending: events start at the first read
        let printer = events.map { stream in Task { await Self.print(stream) } }
        let display = ProgressDisplay(label: output?.lastPathComponent ?? url.lastPathComponent)
        let result = await Cancellation.cancellingOnSignals { () -> Result<Void, HTTPError> in
            do throws(HTTPError) {
                if let output {
                    let metadata = try await client.download(request, to: output, overwrite: overwrite ? .replace : .refuse,
                                                             progress: display.update)
                    if metadata.headers["Content-Length"] == nil { display.finish() }
                } else {
                    let response = try await client.stream(request)
                    for try await chunk in response.body {
                        chunk.withUnsafeBytes { Terminal.writeAll($0) }
                    }
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        client.shutdown()
        await printer?.value
        switch result {
        case .success:
            return 0
        case .failure(let error):
            if Terminal.isInteractive, output != nil { Terminal.write("\n", to: .standardError) }
            Terminal.error(error.message)
            return 1
        }
    }

    private func makeClient() throws(HTTPError) -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = allowsHTTP
        configuration.transport.certificateAuthorities = certificateAuthorities
        if !pins.isEmpty, let host = url.host { try configuration.transport.pins.pin(host, pins) }
        if let retries {
            if retries == 0 {
                configuration.pipeline.retry = .never
            } else {
                configuration.pipeline.retry.maximumAttempts = retries + 1
            }
        }
        configuration.limits.maximumBodyBytes = Self.maximumBodyBytes
        var origin = URLComponents()
        origin.scheme = url.scheme
        origin.host = url.host
        origin.port = url.port
        guard let base = origin.url else {
            throw HTTPError(.invalidRequest, code: .badURL, "\(url.absoluteString) has no usable origin.", stage: .configuration)
        }
        return try HTTPClient(baseURL: base, configuration: configuration)
    }

    private func makeRequest(_ configuration: HTTPClientConfiguration) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        var layers = HeaderLayers()
        layers.set(.defaults, configuration.defaultHeaders)
        layers.set(.endpoint, headers)
        request.headers = layers.merged
        request.byteRange = range
        request.limits = configuration.limits
        return request
    }

    /// Writes each event as one JSON line on stderr until the stream ends.
    private static func print(_ events: AsyncStream<HTTPEvent>) async {
        for await event in events {
            Terminal.line(EventLine(event).json, to: .standardError)
        }
    }
}
