import Foundation
import Testing
@testable import TesseraHLS
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

@Suite("Checkpoints and restore (no sockets)")
struct CheckpointTests {
    struct Entry: Codable, Equatable, Sendable { var value: Int }

    @Test("a log opens for its own job only: another fingerprint, another format or resume off discards it, with the reason")
    func log() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("cp").path
        do {
            let log = try CheckpointLog<Entry>(path: path, fingerprint: "a", resume: true)
            #expect(log.restorable.isEmpty && log.discarded == nil)
            try log.append([Entry(value: 1), Entry(value: 2)])
        }
        #expect(try CheckpointLog<Entry>(path: path, fingerprint: "a", resume: true).restorable == [Entry(value: 1), Entry(value: 2)])
        #expect(try CheckpointLog<Entry>(path: path, fingerprint: "a", resume: false).discarded == "resume was turned off")
        let other = try CheckpointLog<Entry>(path: path, fingerprint: "b", resume: true)
        #expect(other.restorable.isEmpty && other.discarded?.contains("plan changed") == true)
        try other.reset(keeping: [Entry(value: 9)])
        #expect(try CheckpointLog<Entry>(path: path, fingerprint: "b", resume: true).restorable == [Entry(value: 9)])
        // A torn last line (a kill mid-append) is dropped; the lines before it stand.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"entry\":{\"val".utf8))
        try handle.close()
        #expect(try CheckpointLog<Entry>(path: path, fingerprint: "b", resume: true).restorable == [Entry(value: 9)])
        try Data("{\"format\":1,\"plan\":\"b\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try CheckpointLog<Entry>(path: path, fingerprint: "b", resume: true).discarded == "the checkpoint is from another format")
    }

    @Test("a log read back gives what it holds now (appends and resets since it opened); its restorable entries can be let go")
    func readBack() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.appendingPathComponent("cp").path
        try CheckpointLog<Entry>(path: path, fingerprint: "a", resume: true).append([Entry(value: 1)])
        let log = try CheckpointLog<Entry>(path: path, fingerprint: "a", resume: true)
        #expect(log.restorable == [Entry(value: 1)])
        log.releaseRestorable()
        #expect(log.restorable.isEmpty)
        try log.append([Entry(value: 2), Entry(value: 3)])
        #expect(try log.entries() == [Entry(value: 1), Entry(value: 2), Entry(value: 3)])
        try log.reset(keeping: [Entry(value: 3)])
        try log.append([Entry(value: 4)])
        #expect(try log.entries() == [Entry(value: 3), Entry(value: 4)])
        log.remove()
        #expect(throws: HLSError.self) { try log.entries() }
    }

    /// The assembler of a_ts_vod's plan writing into `folder`.
    static func assembler(_ folder: TemporaryDirectory) throws -> (DownloadPlan, SingleFileAssembler, CheckpointLog<AssemblyRecord>, StagingFile) {
        let text = try FixtureStore.bytes("a_ts_vod/index.m3u8")
        guard case .media(let playlist) = try PlaylistParser().parse(text).playlist else { preconditionFailure("not media") }
        let plan = try DownloadPlan(playlist: playlist, baseURL: URL(string: "https://cdn.example/a/index.m3u8")!)
        let paths = JobPaths(destination: folder.url.appendingPathComponent("out.ts"))
        let output = try StagingFile(destination: paths.destination, policy: .refuse, resumableAt: paths.partial)
        let log = try CheckpointLog<AssemblyRecord>(path: paths.checkpoint, fingerprint: plan.fingerprint.hex, resume: true)
        let assembler = try SingleFileAssembler(plan: plan, output: output, checkpoint: log, spillFolder: folder.url.path,
                                                settings: SingleFileAssembler.Settings(), clock: ContinuousClock())
        return (plan, assembler, log, output)
    }

    static func fetched(_ plan: DownloadPlan, _ index: Int) throws -> FetchedResource {
        let bytes = try FixtureStore.bytes("a_ts_vod/seg_00\(index).ts")
        return FetchedResource(index: index, resource: plan.resource(at: index), body: .memory(bytes, MemoryReservation(MemoryBudget(limit: 1 << 30))),
                               fetchedBytes: UInt64(bytes.count), source: "s\(index)", validator: nil, pathway: nil, keyFingerprint: nil)
    }

    @Test("restore keeps what the running digests vouch for, and cuts a damaged partial file back to the last good resource")
    func restore() throws {
        let folder = try TemporaryDirectory()
        do {
            let (plan, assembler, _, output) = try Self.assembler(folder)
            for index in 0..<3 { try assembler.write(Self.fetched(plan, index)) }
            try assembler.checkpointIfDue(force: true)
            output.keep()
        }
        let sizes = try (0..<3).map { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts").count }
        do {
            let (_, assembler, log, output) = try Self.assembler(folder)
            #expect(try assembler.restore(log.restorable).resources == 3)
            #expect(assembler.bytesWritten == UInt64(sizes.reduce(0, +)))
            output.keep()
        }
        let partial = folder.url.appendingPathComponent(".out.ts.tessera-partial")
        var bytes = try Data(contentsOf: partial)
        bytes[sizes[0] + 100] ^= 0xFF    // inside resource 1
        try bytes.write(to: partial)
        let (plan, assembler, log, output) = try Self.assembler(folder)
        #expect(try assembler.restore(log.restorable).resources == 1)
        #expect(output.size == UInt64(sizes[0]))
        for index in 1..<4 { try assembler.write(Self.fetched(plan, index)) }
        _ = try assembler.finish()
        #expect(try Array(Data(contentsOf: partial)) == DownloadHarness.clearReference())
    }
}
