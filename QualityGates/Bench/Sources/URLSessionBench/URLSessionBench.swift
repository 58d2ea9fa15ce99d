import BenchDriver
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The peer: Foundation's URLSession (FoundationNetworking on Linux), with the same command line
/// as HTTPClientBench, in its own process.
@main
enum URLSessionBench {
    static func main() async {
        guard let command = BenchCommand.parse(Array(CommandLine.arguments.dropFirst())) else {
            FileHandle.standardError.write(Data("usage: URLSessionBench gets <url> <count> <concurrency> | download <url> <output>\n".utf8))
            exit(2)
        }
        let ok: Bool
        switch command {
        case .gets(let url, let count, let concurrency):
            ok = await runGets(SessionGets(url: URL(string: url)!, concurrency: concurrency), count: count, concurrency: concurrency)
        case .download(let url, let output):
            ok = await download(URL(string: url)!, to: URL(fileURLWithPath: output))
        }
        exit(ok ? 0 : 1)
    }

    static func download(_ url: URL, to output: URL) async -> Bool {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        let session = URLSession(configuration: configuration)
        do {
            let (file, response) = try await session.download(from: url)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { return false }
            try? FileManager.default.removeItem(at: output)   // a previous run's output may or may not exist
            try FileManager.default.moveItem(at: file, to: output)
            return true
        } catch {
            print("failed: \(error)")
            return false
        }
    }
}

struct SessionGets: GetRunner {
    let session: URLSession
    let url: URL

    init(url: URL, concurrency: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(8, concurrency)
        configuration.connectionProxyDictionary = [:]
        session = URLSession(configuration: configuration)
        self.url = url
    }

    func get() async -> Int {
        do {
            let (data, response) = try await session.data(from: url)
            return (response as? HTTPURLResponse)?.statusCode == 200 ? data.count : -1
        } catch {
            return -1
        }
    }
}
