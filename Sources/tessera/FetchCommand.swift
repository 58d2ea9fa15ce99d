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
import TesseraHTTP
import TesseraSupport

/// `tessera fetch <URL> [-o file] [-r start-end] [--allow-http] [--events] [--overwrite]
/// [network options]` (CommandHelp.fetch): one request through the client pipeline and its
/// policies. The body goes to stdout, or atomically to `-o`, written by the transfer as it
/// arrives (this client carries this one transfer). Any status but 2xx, or an output that
/// cannot be written (a closed pipe), fails (exit 1). Each retry's wait is said on stderr.
struct FetchCommand: Sendable {
    var url: URL
    var output: URL?
    var range: ByteRange?
    var network = NetworkOptions()
    var allowsHTTP = false
    var showsEvents = false
    var overwrite = false
    /// `--aws-sigv4` with `--user`: every request signed (last, after the other interceptors).
    var signer: AWSSignatureV4?

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
        let events = client.events   // read before sending: events start at the first read
        let printer = Task { [showsEvents] in await Self.print(events, all: showsEvents) }
        let display = ProgressDisplay(label: output?.lastPathComponent ?? url.lastPathComponent)
        let result = await SignalCancellation.run { () -> Result<Void, HTTPError> in
            do throws(HTTPError) {
                if let output {
                    // This client carries this one transfer: it writes the file itself, as curl -o does.
                    let metadata = try await client.download(request, to: output, overwrite: overwrite ? .replace : .refuse,
                                                             writing: .inline, progress: display.update)
                    if metadata.headers["Content-Length"] == nil { display.finish() }
                } else {
                    // Each chunk written whole by the transfer as it arrives, as curl does; a
                    // reader that went away (a broken pipe) ends the transfer with an error.
                    let response = try await client.stream(request)
                    try await response.body.write(to: DurableFileAppender(descriptor: STDOUT_FILENO, path: "standard output"))
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        client.shutdown()
        await printer.value
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
        configuration.transport = try network.transport(entry: url, base: configuration.transport)
        var pipeline = network
        pipeline.headers = HTTPHeaders()    // sent as the request's own fields below
        configuration.pipeline = pipeline.pipeline(entry: url, base: configuration.pipeline,
                                                   defaultRetries: configuration.pipeline.retry.maximumAttempts - 1)
        if let signer { configuration.pipeline.interceptors.append(AWSSignatureV4Interceptor(signer)) }
        configuration.limits.maximumBodyBytes = Self.maximumBodyBytes
        if let timeout = network.timeout { configuration.limits.timeToFirstByte = timeout }
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
        layers.set(.endpoint, network.headers)
        request.headers = layers.merged
        request.byteRange = range
        request.limits = configuration.limits
        return request
    }

    /// Writes each event as one JSON line on stderr (with `all`), else each retry's wait, until
    /// the stream ends.
    private static func print(_ events: AsyncStream<HTTPEvent>, all: Bool) async {
        for await event in events {
            if all { Terminal.line(EventLine(event).json, to: .standardError) } else { RetryLine.print(event) }
        }
    }
}
