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
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// The recorder's interstitial assets (`RecordingInterstitials`): told each playlist of the
/// primary, it packages — one source at a time, in the background — the asset of each new
/// interstitial Date Range's X-ASSET-URI, or each asset of its X-ASSET-LIST (a local copy of the
/// list then names them), as a complete VOD package (`PackageDownload`, the recording's selection
/// policy, no steering) in its own folder `interstitials/<digest>/` of the staging folder.
/// Bounded by sources, assets and bytes; a source that fails or exceeds a bound leaves nothing
/// behind. `packaged` (now) and `finish()` (once every started source is done) give what a
/// package may reference: by the attribute's text, the package path the Date Range is to name.
final class InterstitialPackager: Sendable {
    /// A source packaged: what its Date Range names and every file of it.
    struct Packaged: Sendable {
        /// The package path of its X-ASSET-URI's master playlist or its local asset list.
        let entry: String
        let files: [PackageFolder.WrittenFile]
        let assets: Int
    }

    private enum Outcome {
        case waiting
        case packaged(Packaged)
        case failed(String)
    }

    private struct State {
        var outcomes: [String: Outcome] = [:]
        var queue: [(text: String, asset: Interstitial.Asset, url: URL)] = []
        var worker: Task<Void, Never>?
        var assets = 0
        var bytes: UInt64 = 0
        var cancelled = false
    }

    /// Where the assets go, inside the staging folder.
    static let folder = "interstitials"

    private let options: RecordingInterstitials
    private let selection: SelectionPolicy
    private let bounds: TransferBounds
    private let client: HLSClient
    private let loader: PlaylistLoader
    private let stagingPath: String
    private let failed: @Sendable (String) -> Void
    private let state = Lock(State())

    /// A packager into the staging folder at `stagingPath`, telling `failed` why each source
    /// could not be packaged.
    /// The assets are fetched within the recording's `bounds` (deadlines, sizes, requests).
    init(options: RecordingInterstitials, selection: SelectionPolicy, bounds: TransferBounds, client: HLSClient, loader: PlaylistLoader,
         stagingPath: String, failed: @escaping @Sendable (String) -> Void) {
        self.failed = failed
        self.bounds = bounds
        self.options = options
        self.selection = selection
        self.client = client
        self.loader = loader
        self.stagingPath = stagingPath
        // A resumed recording packages its interstitials again: what an interrupted run left goes.
        FolderTree.remove(at: stagingPath + "/" + Self.folder)
    }

    /// Starts packaging the asset sources of the interstitials `playlist` (listed at `url`)
    /// shows that are new, within the source bound.
    func observe(_ playlist: MediaPlaylist, listedIn url: URL) {
        let sources = playlist.dateRanges.compactMap { range -> (String, Interstitial.Asset)? in
            guard let interstitial = Interstitial(range), let asset = interstitial.asset else { return nil }
            switch asset {
            case .uri(let text), .list(let text): return (text, asset)
            }
        }
        guard !sources.isEmpty else { return }
        state.withLock { state in
            guard !state.cancelled else { return }
            // Past the bound a source is not noted at all (a long recording of rotating ad URIs
            // must not grow the map): its ranges find no packaged assets and are omitted.
            for (text, asset) in sources where state.outcomes[text] == nil && state.outcomes.count < options.maximumEvents {
                state.outcomes[text] = .waiting
                state.queue.append((text, asset, url))
            }
            if state.worker == nil, !state.queue.isEmpty { state.worker = Task { [self] in await work() } }
        }
    }

    /// What is packaged now (for a snapshot).
    var packaged: [String: Packaged] {
        state.withLock { state in state.outcomes.compactMapValues { if case .packaged(let done) = $0 { done } else { nil } } }
    }

    /// Waits for every source started, then gives what is packaged.
    func finish() async -> [String: Packaged] {
        while let worker = state.withLock({ $0.worker }) { await worker.value }
        return packaged
    }

    /// Stops: the source in progress is cancelled (and removed), none is started.
    func cancel() {
        let worker = state.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            state.queue = []
            return state.worker
        }
        worker?.cancel()
    }

    /// Packages the queued sources one after the other.
    private func work() async {
        while true {
            let next = state.withLock { state -> (text: String, asset: Interstitial.Asset, url: URL)? in
                guard !state.cancelled, !state.queue.isEmpty else {
                    state.worker = nil
                    return nil
                }
                return state.queue.removeFirst()
            }
            guard let next else { return }
            let container = Self.folder + "/" + SHA256Hasher.hash(Array(next.text.utf8)).hex.prefix(16)
            let outcome: Outcome
            do throws(HLSError) {
                outcome = .packaged(try await package(next.asset, listedIn: next.url, into: container))
            } catch {
                FolderTree.remove(at: stagingPath + "/" + container)
                outcome = .failed(error.message)
                if error.code != .cancelled { failed(error.message) }
            }
            state.withLock { state in
                if case .packaged(let done) = outcome {
                    state.assets += done.assets
                    state.bytes += done.files.reduce(0) { $0 + $1.byteCount }
                }
                state.outcomes[next.text] = outcome
            }
        }
    }

    /// The source `asset` packaged into `container`.
    private func package(_ asset: Interstitial.Asset, listedIn url: URL, into container: String) async throws(HLSError) -> Packaged {
        switch asset {
        case .uri(let text):
            let files = try await packageAsset(try ResourceURL.resolve(text, against: url, what: "An interstitial's X-ASSET-URI"), at: container + "/asset")
            return Packaged(entry: container + "/asset/" + PackageManifest.entryName, files: files, assets: 1)
        case .list(let text):
            let listURL = try ResourceURL.resolve(text, against: url, what: "An interstitial's X-ASSET-LIST")
            let (bytes, answered) = try await loader.bytes(listURL, purpose: .sessionData, what: "The asset list", limit: options.maximumListBytes)
            let list = try AssetList.parse(bytes)
            var files: [PackageFolder.WrittenFile] = []
            var local: [LocalAssetList.Asset] = []
            for (index, item) in list.assets.enumerated() {
                let resolved = try ResourceURL.resolve(item.uri, against: answered, what: "Asset \(index) of an asset list")
                files += try await packageAsset(resolved, at: container + "/\(index)")
                local.append(LocalAssetList.Asset(uri: "\(index)/" + PackageManifest.entryName, duration: item.duration))
            }
            let document = LocalAssetList(assets: local, skipControl: list.skipControlOffset == nil && list.skipControlDuration == nil && list.skipControlLabelId == nil
                                            ? nil : LocalAssetList.SkipControl(offset: list.skipControlOffset, duration: list.skipControlDuration, labelId: list.skipControlLabelId))
            let entry = container + "/list.json"
            files.append(try write(try document.encoded(), at: entry))
            return Packaged(entry: entry, files: files, assets: list.assets.count)
        }
    }

    /// One asset packaged at `folder` (a package of its own), within what the bounds leave.
    private func packageAsset(_ url: URL, at folder: String) async throws(HLSError) -> [PackageFolder.WrittenFile] {
        let (assets, bytes) = state.withLock { ($0.assets, $0.bytes) }
        guard assets < options.maximumAssets else { throw HLSError(.budgetExceeded, "More than \(options.maximumAssets) interstitial assets.") }
        guard bytes < options.maximumBytes else { throw HLSError(.budgetExceeded, "The interstitial assets reached \(options.maximumBytes) bytes.") }
        let budget = options.maximumBytes - bytes
        var packageOptions = PackageDownload.Options()
        packageOptions.bounds = bounds
        packageOptions.selection = selection
        packageOptions.steering = false
        packageOptions.resumes = false
        packageOptions.bounds.maximumResourceBytes = min(packageOptions.bounds.maximumResourceBytes, budget)
        try makeFolder(folder.split(separator: "/").dropLast().joined(separator: "/"))
        let job = PackageDownload(url: url, destination: URL(fileURLWithPath: stagingPath + "/" + folder), client: client, options: packageOptions)
        let over = Lock(false)
        let running = Lock<Task<Result<PackageReport, HLSError>, Never>?>(nil)
        let task = Task { () -> Result<PackageReport, HLSError> in
            do throws(HLSError) {
                return .success(try await job.run { event in
                    guard case .progress(let progress) = event, progress.whole.bytesWritten > budget else { return }
                    over.withLock { $0 = true }
                    running.withLock { $0 }?.cancel()
                })
            } catch {
                return .failure(error)
            }
        }
        running.withLock { $0 = task }
        let result = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        if over.withLock({ $0 }) { throw HLSError(.budgetExceeded, "An interstitial asset would take the assets past \(options.maximumBytes) bytes.") }
        _ = try result.get()
        return try files(under: folder, budget: budget)
    }

    /// Every file under `folder` of the staging folder, hashed.
    private func files(under folder: String, budget: UInt64) throws(HLSError) -> [PackageFolder.WrittenFile] {
        let path = stagingPath + "/" + folder
        guard let entries = FolderTree.entries(at: path), let root = FolderHandle(path: path) else {
            throw HLSError(.destinationUnwritable, "The interstitial asset at \(path) cannot be read back.")
        }
        var files: [PackageFolder.WrittenFile] = []
        var total: UInt64 = 0
        for entry in entries {
            guard entry.kind == .file, let relative = SafeRelativePath(entry.path), let inside = SafeRelativePath(folder + "/" + entry.path),
                  let digest = root.digest(of: relative) else {
                throw HLSError(.destinationUnwritable, "The interstitial asset at \(path) holds \(entry.path), which is not a readable file.")
            }
            total += digest.size
            files.append(PackageFolder.WrittenFile(path: inside, byteCount: digest.size, sha256: digest.sha256))
        }
        guard total <= budget else { throw HLSError(.budgetExceeded, "An interstitial asset would take the assets past \(options.maximumBytes) bytes.") }
        return files
    }

    private func makeFolder(_ folder: String) throws(HLSError) {
        guard let root = FolderHandle(path: stagingPath), let marker = SafeRelativePath(folder + "/.keep"), root.makeParents(of: marker) else {
            throw HLSError(.destinationUnwritable, "Cannot create \(folder) in \(stagingPath): \(FileDescriptorIO.lastError).")
        }
    }

    /// Writes `bytes` at `path` of the staging folder, durably.
    private func write(_ bytes: [UInt8], at path: String) throws(HLSError) -> PackageFolder.WrittenFile {
        guard let root = FolderHandle(path: stagingPath), let safe = SafeRelativePath(path), root.makeParents(of: safe) else {
            throw HLSError(.destinationUnwritable, "Cannot create the folders of \(path) in \(stagingPath).")
        }
        let fd = root.openFile(safe, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw HLSError(.destinationUnwritable, "Cannot write \(path) in \(stagingPath): \(FileDescriptorIO.lastError).") }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { FileDescriptorIO.writeAll(fd, $0) }
        guard written, fsync(fd) == 0 else { throw HLSError(.destinationUnwritable, "Cannot write \(path) in \(stagingPath): \(FileDescriptorIO.lastError).") }
        return PackageFolder.WrittenFile(path: safe, byteCount: UInt64(bytes.count), sha256: SHA256Hasher.hash(bytes))
    }
}
