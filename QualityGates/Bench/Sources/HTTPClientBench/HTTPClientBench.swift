import BenchDriver
import FoundationEssentials
import Glibc
import TesseraHTTP

/// `HTTPClientBench gets <url> <count> <concurrency>`: GETs through the whole client (endpoint →
/// pipeline → libcurl), each body read and its size checked. `HTTPClientBench transport-gets …`:
/// the same over the bare transport. `HTTPClientBench download <url> <output>`: one streamed
/// download to a file. Run under /usr/bin/time by Scripts/bench-http.sh; exits 1 on any failure.
@main
enum HTTPClientBench {
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let bare = arguments.first == "transport-gets"
        if bare { arguments[0] = "gets" }
        guard let command = BenchCommand.parse(arguments) else {
            print("usage: HTTPClientBench [transport-]gets <url> <count> <concurrency> | download <url> <output>")
            exit(2)
        }
        let ok: Bool
        switch command {
        case .gets(let url, let count, let concurrency):
            let url = URL(string: url)!
            let runner: any GetRunner = bare ? TransportGets(url: url, concurrency: concurrency) : ClientGets(url: url, concurrency: concurrency)
            ok = await runGets(runner, count: count, concurrency: concurrency)
        case .download(let url, let output):
            ok = await download(URL(string: url)!, to: URL(fileURLWithPath: output))
        }
        exit(ok ? 0 : 1)
    }

    static func download(_ url: URL, to output: URL) async -> Bool {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        configuration.transport.proxy = .none
        configuration.limits.maximumBodyBytes = 1 << 40
        do {
            let client = try HTTPClient(baseURL: origin(url), configuration: configuration)
            var request = HTTPRequest(url: url)
            request.limits = configuration.limits
            let metadata = try await client.download(request, to: output, overwrite: .replace)
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

    init(url: URL, concurrency: Int) {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        configuration.transport.proxy = .none
        configuration.transport.maximumConnectionsPerHost = max(8, concurrency)
        client = try! HTTPClient(baseURL: HTTPClientBench.origin(url), configuration: configuration)
        path = url.path
    }

    func get() async -> Int {
        do { return try await client.send(RequestBuilder.get(path, as: [UInt8].self)).count } catch { return -1 }
    }
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
