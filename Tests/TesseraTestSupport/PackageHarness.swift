import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraSupport

/// An origin serving the fixtures plus presentations written for a test (under `/t/`), and a
/// destination folder for packages.
public final class PackageHarness: Sendable {
    public let origin: OriginSimulator
    public let transport: CurlTransport
    /// Where packages are written.
    public let folder: TemporaryDirectory
    /// What the origin serves.
    public let root: TemporaryDirectory

    /// Serves `Fixtures/` with `extra` (path under the root → text) beside it; packages are
    /// written under `folderParent` (the system temporary folder when nil).
    public init(extra: [String: String] = [:], folderParent: URL? = nil) throws {
        root = try TemporaryDirectory()
        for entry in try FixtureStore.entries() { try root.write(entry.path, try FixtureStore.bytes(entry.path)) }
        for (path, text) in extra { try root.write(path, Array(text.utf8)) }
        origin = try OriginSimulator(root: root.url)
        transport = try CurlTransport.loopback()
        folder = try TemporaryDirectory(under: folderParent)
    }

    deinit {
        transport.shutdown()
        origin.shutdown()
    }

    /// The package folder.
    public var destination: URL { folder.url.appendingPathComponent("package") }

    /// A job for `path` on the origin.
    public func job(_ path: String, options: PackageDownload.Options = PackageDownload.Options()) -> PackageDownload {
        var options = options
        options.capacity = .bestEffort
        return PackageDownload(url: origin.url(path), destination: destination, client: HLSClient(transport: transport), options: options)
    }

    /// Every file of the published package, by relative path.
    public func published() throws -> [String: [UInt8]] {
        try Self.files(under: destination)
    }

    /// Every file under `folder`, by path relative to it.
    public static func files(under folder: URL) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        let base = folder.path + "/"
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            out[path] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + path)))
        }
        return out
    }

    /// The names in the destination's folder that start with a dot (staging, checkpoint, lock…).
    public func hiddenFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }.sorted()
    }

    /// Collects events.
    public final class Events: Sendable {
        public init() {}
        private let list = Lock<[PackageDownload.Event]>([])
        public var all: [PackageDownload.Event] { list.withLock { $0 } }
        public func record(_ event: PackageDownload.Event) { list.withLock { $0.append(event) } }
    }
}

extension PackageHarness {
    /// A package of the fixtures' multivariant presentation — video, its audio, both subtitle
    /// tracks — at `destination`.
    public static func packaged() async throws -> PackageHarness {
        let harness = try PackageHarness()
        var options = PackageDownload.Options()
        options.selection.subtitles = RenditionPolicy("all") ?? RenditionPolicy()
        _ = try await harness.job("/e_multivariant/master.m3u8", options: options).run()
        return harness
    }
}
