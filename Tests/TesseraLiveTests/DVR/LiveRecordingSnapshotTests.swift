import Foundation
import Testing
import TesseraHLS
import TesseraLive
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// In-progress snapshots: what a recording holds at a complete-segment boundary published
/// beside it as its own verified package — files hard-linked, so eviction after it takes
/// nothing from it — while the recording goes on; bounded, withdrawable.
@Suite("Live recording snapshots: independent verified packages while recording goes on")
struct LiveRecordingSnapshotTests {
    typealias Live = LiveRecordingTests.Live
    typealias Publisher = LiveRecordingTests.Publisher

    static func inode(_ url: URL) throws -> UInt64 {
        try #require((try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.uint64Value)
    }

    /// Records from the window start to ENDLIST after `segments`, asking for a snapshot once
    /// `at` segments are written; the report and the snapshot (or its failure).
    static func record(_ live: Live, _ options: LiveRecording.Options, segments: Int = 10, at: Int = 3)
        async throws -> (RecordingReport, Result<RecordingSnapshot, HLSError>) {
        let control = RecordingControl()
        let publisher = Publisher(live.origin)
        let asked = Lock<Task<Result<RecordingSnapshot, HLSError>, Never>?>(nil)
        let report = try await live.recording(options).run(control: control) { event in
            if case .progress(let progress) = event, progress.segments >= at {
                asked.withLock { task in
                    if task == nil {
                        task = Task {
                            do throws(HLSError) { return .success(try await control.snapshot()) } catch { return .failure(error) }
                        }
                    }
                }
            }
            publisher.follow(event, endAfter: segments)
        }
        let task = try #require(asked.withLock { $0 })
        return (report, await task.value)
    }

    @Test("a snapshot mid-recording: a verified recording package of what was written, its files the recording's own (hard links)")
    func midRecording() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        let (report, result) = try await Self.record(live, options)
        let snapshot = try result.get()
        #expect(snapshot.folder.lastPathComponent == "rec.snapshot-1" && snapshot.segments >= 3 && report.snapshots == 1)
        let verification = PackageStore(folder: snapshot.folder).verify()
        #expect(verification.isVerified && verification.manifest?.kind == .recording, "\(verification.findings)")
        let bytes = try #require(verification.playlists["video/index.m3u8"])
        guard case .media(let playlist) = try PlaylistParser().parse(bytes).playlist else { Issue.record("not a media playlist"); return }
        #expect(playlist.hasEndList && playlist.segments.count == snapshot.segments && playlist.segments.first?.mediaSequence == 0)
        let final = try live.playlist(try live.verified())
        #expect(final.segments.count > playlist.segments.count, "the recording went on")
        let name = "video/\(playlist.segments[0].mediaSequence).ts"
        #expect(try Self.inode(snapshot.folder.appendingPathComponent(name)) == (try Self.inode(live.destination.appendingPathComponent(name))))
        #expect(!String(decoding: try Data(contentsOf: snapshot.folder.appendingPathComponent("manifest.json")), as: UTF8.self).contains("127.0.0.1"), "URL-free")
    }

    @Test("rolling eviction after a snapshot deletes the recording's files, not the snapshot's: it still verifies whole")
    func evictionAfterSnapshot() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.retention = .duration(.seconds(4))
        let (_, result) = try await Self.record(live, options, segments: 12, at: 2)
        let snapshot = try result.get()
        let verification = PackageStore(folder: snapshot.folder).verify()
        #expect(verification.isVerified, "\(verification.findings)")
        let kept = try live.playlist(try live.verified()).segments.map(\.mediaSequence)
        let snapped = try #require(verification.playlists["video/index.m3u8"])
        guard case .media(let playlist) = try PlaylistParser().parse(snapped).playlist else { Issue.record("not a media playlist"); return }
        #expect(Set(playlist.segments.map(\.mediaSequence)).isDisjoint(with: kept), "the snapshot's segments were evicted from the recording since")
    }

    @Test("at most eight outstanding: a ninth is refused; a withdrawn request fails as cancelled; asking after the end is refused")
    func bounded() async throws {
        let control = RecordingControl()
        let waiting = (0..<8).map { _ in
            Task { () -> HLSError? in
                do throws(HLSError) { _ = try await control.snapshot() } catch { return error }
                return nil
            }
        }
        while control.outstandingSnapshots < 8 { await Task.yield() }
        do throws(HLSError) { _ = try await control.snapshot(); Issue.record("a ninth outstanding snapshot") } catch {
            #expect(error.code == .destinationBusy, "\(error)")
        }
        waiting[0].cancel()
        #expect(await waiting[0].value?.code == .cancelled)
        control.end()
        for task in waiting.dropFirst() { #expect(await task.value?.code == .cancelled) }
        do throws(HLSError) { _ = try await control.snapshot(); Issue.record("a snapshot after the end") } catch {
            #expect(error.code == .cancelled)
        }
    }
}

extension LiveRecordingSnapshotTests {
    @Test("a request withdrawn once taken into a publication fails at once as cancelled; a publication no one waits for is abandoned")
    func withdrawnWhilePublishing() async throws {
        let control = RecordingControl()
        let asking = Task { () -> HLSError? in
            do throws(HLSError) { _ = try await control.snapshot() } catch { return error }
            return nil
        }
        while control.outstandingSnapshots < 1 { await Task.yield() }
        let publication = try #require(control.takeSnapshotRequests())
        #expect(!control.isAbandoned(publication) && control.outstandingSnapshots == 1)
        asking.cancel()
        #expect(await asking.value?.code == .cancelled)
        #expect(control.isAbandoned(publication), "no one waits for it: the publisher discards it")
        control.published(.failure(HLSError(.cancelled, "withdrawn")), publication: publication)    // no second resume
        #expect(control.outstandingSnapshots == 0)
    }
}
