#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// `tessera graph` (CommandHelp.graph): loads a whole presentation — the multivariant playlist
/// and every media playlist it references — and prints its tree and every diagnostic, or
/// (`--json`) one JSON document streamed as the children arrive.
struct GraphCommand: Sendable {
    var source = ""
    var json = false
    var strict = false
    var authoring = false
    var failOn: Diagnostic.Severity?
    var parallelism = 8
    var base: URL?
    var network = NetworkOptions()
    var selection = SelectionOptions(takesRenditions: true)

    /// A graph parses and frees hundreds of short-lived playlists: glibc would hand the freed heap
    /// back to the kernel after each and fault it in again for the next (a tenth of the run).
    /// Keep up to 16 MiB of it for reuse (peak memory rises by about 1 MB).
    private static func keepFreedMemory() {
        HeapPolicy.keepFreedHeap(upTo: 16 << 20)
    }

    func run() async -> Int32 {
        Self.keepFreedMemory()
        let entry: URL
        var localBytes: [UInt8]?
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            entry = url
        } else {
            let path = source.hasPrefix("file://") ? (URL(string: source)?.path ?? source) : source
            entry = URL(fileURLWithPath: path).standardizedFileURL
            do { localBytes = try FileDescriptorIO.readRegularFile(entry.path, limit: PlaylistLimits().maximumBytes) } catch {
                Terminal.error(error.message)
                return 1
            }
        }
        let networkEntry = base.flatMap { $0.isFileURL ? nil : $0 } ?? entry
        let transport: CurlTransport
        do { transport = try CurlTransport(configuration: try network.transport(entry: networkEntry)) } catch {
            Terminal.error(error.message)
            return 1
        }
        defer { transport.shutdown() }
        let client = HLSClient(transport: transport, configuration: network.pipeline(entry: networkEntry, base: HLSClient.defaultConfiguration),
                               observer: RetryLine.print)
        var options = PresentationGraphLoader.Options()
        options.parallelism = parallelism
        options.strict = strict
        options.authoring = authoring
        let loader = PresentationGraphLoader(client: client, options: options)
        let json = self.json
        let policy = selection.policy
        let local = localBytes
        let result = await SignalCancellation.run { () -> Result<PresentationGraph, HLSError> in
            do throws(HLSError) {
                let root = if let local { try loader.root(local, url: entry, baseURL: base ?? entry) } else { try await loader.loadRoot(entry) }
                guard json else { return .success(try await loader.loadChildren(of: root)) }
                let writer = PresentationGraphJSON { Terminal.writeAll($0) }
                writer.begin(root)
                let graph = try await loader.loadChildren(of: root) { _, playlist, parsed throws(HLSError) in
                    writer.playlist(playlist, parsed: parsed)
                }
                writer.end(graph, selection: PresentationSelector.select(policy, from: root.multivariant, unavailable: graph.unloadableVariants))
                return .success(graph)
            } catch {
                return .failure(error)
            }
        }
        let graph: PresentationGraph
        switch result {
        case .success(let loaded): graph = loaded
        case .failure(let error):
            if json { Terminal.write("\n", to: .standardError) }
            Terminal.error(error.message)
            return 1
        }
        if !json {
            let chosen = PresentationSelector.select(selection.policy, from: graph.multivariant, unavailable: graph.unloadableVariants)
            for line in GraphTree.lines(graph, selection: chosen) { Terminal.line(line) }
        }
        let threshold = failOn ?? (strict ? .error : nil)
        guard let threshold else { return 0 }
        let failing = graph.diagnostics.filter { $0.severity >= threshold }
        guard let first = failing.first else { return 0 }
        Terminal.error("\(failing.count) diagnostic\(failing.count == 1 ? "" : "s") at \(threshold) or worse, the first \(first.id)"
            + " (\(strict && failOn == nil ? "--strict" : "--fail-on \(threshold)")).")
        return 1
    }
}
