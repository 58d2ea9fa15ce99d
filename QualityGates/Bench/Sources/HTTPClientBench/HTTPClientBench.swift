import BenchDriver
import FoundationEssentials
import Glibc
import TesseraHTTP

/// `HTTPClientBench <mode> <url> <count> <concurrency>`, GETs with each body read and its size
/// checked, through: `gets` the whole client (endpoint → pipeline → libcurl); `pipeline-gets` the
/// pipeline alone (no endpoint, header layers or decoding); `transport-gets` the bare transport;
/// `loop-gets` the whole client with the workers on `client.executor` (the engine's thread);
/// `instant-gets` the whole client over a transport answering at once from memory (what the
/// client costs per request; the URL is not fetched). `HTTPClientBench download <url> <output>`:
/// one download to a file written by the transfer as it arrives (`writing: .inline`, as
/// `tessera fetch -o`); `download-beside` the same with the library's default (`.beside`: a
/// piece at a time by the reading task). `manager-download <url> <folder>`: one download through
/// a `DownloadManager` (ManagerDownload). Run under /usr/bin/time by Scripts/bench-http.sh; exits 1 on
/// any failure.
@main
enum HTTPClientBench {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let mode = arguments.first ?? ""
        if ["transport-gets", "instant-gets", "pipeline-gets", "loop-gets"].contains(mode) { arguments[0] = "gets" }
        if mode == "download-beside" { arguments[0] = "download" }
        if mode == "manager-download", arguments.count == 3 {
            exit(await ManagerDownload.run(URL(string: arguments[1])!, into: URL(fileURLWithPath: arguments[2])) ? 0 : 1)
        }
        guard let command = BenchCommand.parse(arguments) else {
            print("usage: HTTPClientBench gets|loop-gets|pipeline-gets|transport-gets|instant-gets <url> <count> <concurrency> | download|download-beside <url> <output>")
            exit(2)
        }
        let ok: Bool
        switch command {
        case .gets(let url, let count, let concurrency):
            let url = URL(string: url)!
            let runner: any GetRunner = switch mode {
            case "transport-gets": TransportGets(url: url, concurrency: concurrency)
            case "instant-gets": ClientGets(url: url, transport: InstantTransport())
            case "pipeline-gets": PipelineGets(url: url, concurrency: concurrency)
            case "loop-gets": ClientGets(url: url, concurrency: concurrency, onEngineThread: true)
            default: ClientGets(url: url, concurrency: concurrency)
            }
            ok = await runGets(runner, count: count, concurrency: concurrency)
        case .download(let url, let output):
            ok = await download(URL(string: url)!, to: URL(fileURLWithPath: output),
                                writing: mode == "download-beside" ? .beside : .inline)
        }
        exit(ok ? 0 : 1)
    }

    static func download(_ url: URL, to output: URL, writing: BodyFileWriting) async -> Bool {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        configuration.transport.proxy = .none
        configuration.limits.maximumBodyBytes = 1 << 40
        do {
            let client = try HTTPClient(baseURL: origin(url), configuration: configuration)
            var request = HTTPRequest(url: url)
            request.limits = configuration.limits
            let metadata = try await client.download(request, to: output, overwrite: .replace, writing: writing)
            print("bytes=\(metadata.bodyBytes)")
            return true
        } catch {
            print("failed: \(error)")
            return false
        }
    }

    static func origin(_ url: URL) -> URL {
        var parts = URLComponents()
        parts.scheme = url.scheme
        parts.host = url.host
        parts.port = url.port
        return parts.url!
    }
}

/// GETs through `HTTPClient`.
struct ClientGets: GetRunner {
    let client: HTTPClient
    let path: String
    let executor: (any TaskExecutor)?

    init(url: URL, concurrency: Int, onEngineThread: Bool = false) {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        configuration.transport.proxy = .none
        configuration.transport.maximumConnectionsPerHost = max(8, concurrency)
        client = try! HTTPClient(baseURL: HTTPClientBench.origin(url), configuration: configuration)
        path = url.path
        executor = onEngineThread ? client.executor : nil
    }

    init(url: URL, transport: any HTTPTransport) {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        client = try! HTTPClient(baseURL: HTTPClientBench.origin(url), configuration: configuration,
                                 transport: transport, clock: ContinuousClock())
        path = url.path
        executor = nil
    }

    func get() async -> Int {
        do { return try await client.send(RequestBuilder.get(path, as: [UInt8].self)).count } catch { return -1 }
    }
}

/// Answers every request at once with a 1 KiB body from memory.
struct InstantTransport: HTTPTransport {
    static let body = [UInt8](repeating: 0x61, count: 1024)

    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Length", "1024")
        headers.add("Content-Type", "application/octet-stream")
        return HTTPResponse(head: HTTPResponseHead(status: 200, headers: headers, url: request.url),
                            body: HTTPBody(source: OneChunk(chunk: Self.body)))
    }
}

/// A body of one chunk.
final class OneChunk: HTTPBodySource, @unchecked Sendable {   // single consumer, as HTTPBodySource requires
    private var chunk: [UInt8]?
    init(chunk: [UInt8]) { self.chunk = chunk }
    func nextChunk() async throws(HTTPError) -> [UInt8]? {
        defer { chunk = nil }
        return chunk
    }
    func abandon() {}
}

/// GETs over the bare libcurl transport, without the client's policies (what the pipeline costs).
struct TransportGets: GetRunner {
    let transport: CurlTransport
    let url: URL

    init(url: URL, concurrency: Int) {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        configuration.maximumConnectionsPerHost = max(8, concurrency)
        transport = try! CurlTransport(configuration: configuration)
        self.url = url
    }

    func get() async -> Int {
        do { return try await transport.send(HTTPRequest(url: url)).body.collect(upTo: 1 << 20).count } catch { return -1 }
    }
}

/// GETs through the pipeline alone (its policies over libcurl, without the client's endpoint,
/// header layers and decoding).
struct PipelineGets: GetRunner {
    let pipeline: HTTPPipeline<ContinuousClock>
    let url: URL

    init(url: URL, concurrency: Int) {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        configuration.maximumConnectionsPerHost = max(8, concurrency)
        pipeline = HTTPPipeline(transport: try! CurlTransport(configuration: configuration), clock: ContinuousClock())
        self.url = url
    }

    func get() async -> Int {
        do { return try await pipeline.data(HTTPRequest(url: url), upTo: 1 << 20).body.count } catch { return -1 }
    }
}
