import FoundationEssentials
import TesseraHTTP

/// `HTTPClientBench manager-download <url> <folder>`: one download through a `DownloadManager`
/// (its state file, partial file, events read to the end) into `folder`.
enum ManagerDownload {
    static func run(_ url: URL, into folder: URL) async -> Bool {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        configuration.transport.proxy = .none
        do {
            let client = try HTTPClient(baseURL: HTTPClientBench.origin(url), configuration: configuration)
            var managed = DownloadManager.Configuration()
            managed.limits.maximumBodyBytes = 1 << 40
            let manager = try DownloadManager(client: client, folder: folder, stateFile: folder.appendingPathComponent(".state.log"),
                                              configuration: managed, clock: ContinuousClock())
            let events = manager.events
            let id = try await manager.add(url)
            await manager.start()
            var progress = 0
            for await event in events where event.id == id {
                switch event.kind {
                case .progress: progress += 1
                case .completed(let file):
                    print("completed \(file.lastPathComponent), \(progress) progress events")
                    return true
                case .failed(_, let message):
                    print("failed: \(message)")
                    return false
                default: break
                }
            }
            return false
        } catch {
            print("failed: \(error)")
            return false
        }
    }
}
