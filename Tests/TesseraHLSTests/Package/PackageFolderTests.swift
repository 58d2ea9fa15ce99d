import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// Three streams of the fixtures into one staging folder through the transfer engine and the
/// per-resource sink: separate fMP4 files, MPEG-TS segments, and one fMP4 file fetched as
/// coalesced byte ranges (many resources appended to one file).
final class SinkHarness: Sendable {
    let origin: OriginSimulator
    let transport: CurlTransport
    let folder: TemporaryDirectory
    static let streams = [("video", "b_fmp4_video"), ("ts", "a_ts_vod"), ("single", "d_fmp4_single")]

    init() throws {
        origin = try OriginSimulator(root: FixtureStore.root)
        transport = try CurlTransport.loopback()
        folder = try TemporaryDirectory()
    }

    deinit {
        transport.shutdown()
        origin.shutdown()
    }

    var destination: URL { folder.url.appendingPathComponent("package") }
    var stagingPath: String { folder.url.appendingPathComponent(".package.tessera-staging").path }
    var checkpointPath: String { folder.url.appendingPathComponent(".package.tessera-checkpoint").path }
    var spillPath: String { folder.url.appendingPathComponent(".package.tessera-spill").path }

    /// Every resource of the three streams, in order.
    func resources() throws -> [PlannedResource] {
        try Self.streams.flatMap { stream, directory -> [PlannedResource] in
            let parsed = try PlaylistParser().parse(try FixtureStore.bytes("\(directory)/index.m3u8"))
            guard case .media(let playlist) = parsed.playlist else { return [] }
            let sequence = ResourceSequence(playlist: playlist, stream: StreamIdentity(stream),
                                            hasInitialization: playlist.segments.first?.map != nil)
            return Array(sequence.resources(from: 0))
        }
    }

    /// The file a resource goes to: `<stream>/<its URI's last path segment>`.
    static func place(_ resource: PlannedResource) throws(HLSError) -> SafeRelativePath {
        let name = resource.uri.split(separator: "/").last.map(String.init) ?? resource.uri
        guard let path = SafeRelativePath("\(resource.identity.stream)/\(name)") else {
            throw HLSError(.invalidPlaylist, "no local name for \(resource.label)")
        }
        return path
    }

    /// Runs the transfer of everything not in `done`; with `stopAfter`, the input fails after
    /// that many fetches and the sink is dropped as a killed process would leave it (no finish,
    /// no cleanup). Returns the files on success.
    /// With `transform`, the folder's transform; `restored` hears the records a resume kept;
    /// `listsFromCheckpoint`, the folder lists its files from its checkpoint (as a recording's).
    func run(stopAfter: Int? = nil, transform: ((FetchedResource) throws(HLSError) -> TransformedResource?)? = nil,
             listsFromCheckpoint: Bool = false, restored: ([ResourceFileRecord]) -> Void = { _ in }) async throws -> [PackageFolder.WrittenFile]? {
        let staging = try StagingDirectory(destination: destination, policy: .refuse, resumableAt: stagingPath)
        let log = try CheckpointLog<ResourceFileRecord>(path: checkpointPath, fingerprint: "sink-test", resume: true)
        try SpillFolder.prepare(spillPath)
        let sink = PackageFolder(staging: staging, checkpoint: log, spillFolder: spillPath, checkpointBytes: 1,
                                    clock: ContinuousClock(), listsFromCheckpoint: listsFromCheckpoint, place: Self.place)
        sink.transform = transform
        let done = try sink.restore(log.restorable)
        restored(sink.takeVouched())
        let pending = try resources().filter { !done.contains($0.identity) }
        var fetches = Array(PlannedFetch.coalescing(pending, maximumBytes: 8 << 20))
        if let stopAfter { fetches = Array(fetches.prefix(stopAfter)) }
        let client = HLSClient(transport: transport)
        let resolver = PlaylistURLResolver(playlists: Dictionary(uniqueKeysWithValues: Self.streams.map {
            (StreamIdentity($0.0), origin.url("/\($0.1)/index.m3u8"))
        }))
        let fetcher = client.fetcher(events: nil)
        let processor = ResourceProcessor(fetcher: fetcher, resolver: resolver, keys: KeyCache(fetcher: fetcher, resolver: resolver),
                                          budget: MemoryBudget(limit: 24 << 20), settings: ResourceProcessor.Settings(),
                                          spillFolder: spillPath, clock: ContinuousClock())
        let engine = TransferEngine(processor: processor, parallelism: 3, maximumBufferedBytes: 24 << 20)
        try await engine.run(ListInput(fetches), firstIndex: sink.resourcesDone, into: sink)
        guard stopAfter == nil else {
            staging.keep()    // a killed process removes nothing
            return nil
        }
        let files = try sink.finishMedia()
        try staging.commit()
        log.remove()
        return files
    }

    /// The bytes of every file under the published package, by relative path.
    func published() throws -> [String: Data] {
        var out: [String: Data] = [:]
        for (stream, _) in Self.streams {
            let folder = destination.appendingPathComponent(stream)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                out["\(stream)/\(name)"] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
        }
        return out
    }
}

@Suite("PackageFolder through the transfer engine")
struct PackageFolderTests {
    /// What the package must hold: each fixture file whole.
    static func expected() throws -> [String: Data] {
        var out: [String: Data] = [:]
        for (stream, directory) in SinkHarness.streams {
            for entry in try FixtureStore.entries() where entry.path.hasPrefix(directory + "/") && !entry.path.hasSuffix(".m3u8") {
                out["\(stream)/\(entry.path.split(separator: "/").last!)"] = Data(try FixtureStore.bytes(entry.path))
            }
        }
        return out
    }

    @Test("a multi-resource plan lands as one file per resource, byte ranges appended in order, each with its SHA-256 (files held, or listed from the checkpoint)",
          arguments: [false, true])
    func wholeRun(listsFromCheckpoint: Bool) async throws {
        let harness = try SinkHarness()
        let files = try #require(try await harness.run(listsFromCheckpoint: listsFromCheckpoint))
        let expected = try Self.expected()
        #expect(try harness.published() == expected)
        #expect(Set(files.map(\.path.value)) == Set(expected.keys))
        for file in files {
            let bytes = try #require(expected[file.path.value])
            #expect(file.byteCount == UInt64(bytes.count) && file.sha256 == SHA256Hasher.hash([UInt8](bytes)))
        }
        let hidden = try FileManager.default.contentsOfDirectory(atPath: harness.folder.url.path).filter { $0.hasPrefix(".") }
        #expect(hidden == [".package.tessera-spill"] || hidden.isEmpty)
    }

    @Test("killed mid-transfer, then resumed: only the missing resources are fetched and the files are identical (files held, or listed from the checkpoint)",
          arguments: [false, true])
    func killAndResume(listsFromCheckpoint: Bool) async throws {
        let harness = try SinkHarness()
        _ = try await harness.run(stopAfter: 5, listsFromCheckpoint: listsFromCheckpoint)
        let firstRequests = harness.origin.log.count
        #expect(firstRequests == 5)
        #expect(!FileManager.default.fileExists(atPath: harness.destination.path))
        let files = try #require(try await harness.run(listsFromCheckpoint: listsFromCheckpoint))
        let expected = try Self.expected()
        #expect(try harness.published() == expected)
        #expect(files.count == expected.count)
        for file in files {
            let bytes = try #require(expected[file.path.value])
            #expect(file.byteCount == UInt64(bytes.count) && file.sha256 == SHA256Hasher.hash([UInt8](bytes)), "\(file.path)")
        }
        // Nothing already vouched for was fetched again.
        let again = harness.origin.log.dropFirst(firstRequests).map(\.path)
        #expect(Set(again).count == again.count)
        #expect(again.allSatisfy { path in !harness.origin.log.prefix(firstRequests).contains { $0.path == path && $0.range == nil } })
    }

    @Test("bytes written after the last checkpoint and files no checkpoint names are dropped on resume")
    func unrecordedWrites() async throws {
        let harness = try SinkHarness()
        _ = try await harness.run(stopAfter: 4)
        let staging = URL(fileURLWithPath: harness.stagingPath)
        let kept = staging.appendingPathComponent("video/seg_001.m4s")
        let handle = try FileHandle(forWritingTo: kept)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))    // a torn append the checkpoint never saw
        try handle.close()
        try Data([9, 9]).write(to: staging.appendingPathComponent("video/stray.bin"))
        _ = try #require(try await harness.run())
        #expect(try harness.published() == Self.expected())
        #expect(harness.origin.attempts("/b_fmp4_video/seg_001.m4s") == 1)
    }

    @Test("a kept file damaged while the job was down is found by its digest, cut back and fetched again")
    func damagedFile() async throws {
        let harness = try SinkHarness()
        _ = try await harness.run(stopAfter: 3)
        let damaged = URL(fileURLWithPath: harness.stagingPath).appendingPathComponent("video/seg_000.m4s")
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: damaged)
        _ = try #require(try await harness.run())
        #expect(try harness.published() == Self.expected())
        #expect(harness.origin.attempts("/b_fmp4_video/seg_000.m4s") == 2)
        #expect(harness.origin.attempts("/b_fmp4_video/init.mp4") == 1)
    }
}

@Suite("PackageFolder transform: resources turned into other bytes of another file, checkpointed and resumed as any file")
struct PackageFolderTransformTests {
    /// The MPEG-TS stream's segments become their first packet each, appended to `ts/body`, with
    /// their sequence number as the payload; the other streams are written as they are.
    static func firstPackets(_ fetched: FetchedResource) throws(HLSError) -> TransformedResource? {
        guard fetched.resource.identity.stream.rawValue == "ts", fetched.resource.identity.kind == .segment,
              case .memory(let bytes, _) = fetched.body else { return nil }
        return TransformedResource(path: SafeRelativePath("ts/body")!, pieces: [bytes.prefix(188)], payload: "\(fetched.resource.identity.mediaSequence)")
    }

    static func expectedBody() throws -> Data {
        let names = try FixtureStore.entries().map(\.path).filter { $0.hasPrefix("a_ts_vod/") && $0.hasSuffix(".ts") }.sorted()
        return Data(try names.flatMap { try FixtureStore.bytes($0).prefix(188) })
    }

    @Test("what the transform made is written to its file, and the resources' own files are not")
    func transformed() async throws {
        let harness = try SinkHarness()
        let files = try #require(try await harness.run(transform: Self.firstPackets))
        let published = try harness.published()
        #expect(published["ts/body"] == (try Self.expectedBody()))
        #expect(published.keys.filter { $0.hasPrefix("ts/") } == ["ts/body"])
        #expect(files.contains { $0.path.value == "ts/body" })
        // Only the job reads what a transform made: checked by CRC-32C, not given a SHA-256.
        #expect(files.first { $0.path.value == "ts/body" }?.sha256 == nil)
        #expect(files.filter { $0.path.value != "ts/body" }.allSatisfy { $0.sha256 != nil })
    }

    @Test("a transformed file's records carry its CRC-32C; damaged while the job was down, it is cut back and made again")
    func damagedTransformedFile() async throws {
        let harness = try SinkHarness()
        _ = try await harness.run(stopAfter: 9, transform: Self.firstPackets)
        var kept: [ResourceFileRecord] = []
        _ = try await harness.run(stopAfter: 1, transform: Self.firstPackets, restored: { kept = $0 })
        let body = kept.filter { $0.path == "ts/body" }
        #expect(!body.isEmpty)
        #expect(body.allSatisfy { $0.sha256.isEmpty && $0.crc32c?.count == 8 })
        #expect(kept.filter { $0.path != "ts/body" }.allSatisfy { $0.crc32c == nil && $0.sha256.count == 64 })
        let damaged = URL(fileURLWithPath: harness.stagingPath).appendingPathComponent("ts/body")
        var bytes = try Data(contentsOf: damaged)
        bytes[10] ^= 0xFF
        try bytes.write(to: damaged)
        var payloads: [String] = []
        _ = try #require(try await harness.run(transform: Self.firstPackets, restored: { records in payloads = records.compactMap(\.mux) }))
        #expect(payloads.isEmpty, "the first segment's packet no longer matches: nothing of the body is kept")
        #expect(try harness.published()["ts/body"] == (try Self.expectedBody()))
        #expect(harness.origin.attempts("/a_ts_vod/seg_000.ts") == 2)
    }

    @Test("killed mid-transfer then resumed: the kept records carry the payloads in order, and the file is whole once")
    func resumed() async throws {
        let harness = try SinkHarness()
        _ = try await harness.run(stopAfter: 9, transform: Self.firstPackets)
        var payloads: [String] = []
        _ = try #require(try await harness.run(transform: Self.firstPackets, restored: { records in payloads = records.compactMap(\.mux) }))
        #expect(!payloads.isEmpty)
        #expect(payloads == (0..<payloads.count).map(String.init), "a prefix of the segments, in order")
        #expect(try harness.published()["ts/body"] == (try Self.expectedBody()))
    }
}
