import Foundation
import Testing
@testable import TesseraHLS
import TesseraPlaylist
import TesseraSupport
@testable import TesseraLive

/// The package a recording's records make — the same for the final commit and an in-progress
/// snapshot — built directly from records the recording's state plans, without a transfer.
@Suite("Recording package: each track's playlist from its records, cut where everything is written, gaps as files")
struct RecordingPackageTests {
    /// The state after one snapshot of `playlist` for the video and the audio, and the records planned.
    static func planned(_ playlist: MediaPlaylist) throws -> (state: RecordingState, records: [RecordingEntryRecord]) {
        var state = RecordingStateTests.state()
        var records: [RecordingEntryRecord] = []
        for track in [0, 1] {
            for case .plan(let planned, let added, let starts) in state.handle(RecordingStateTests.snapshot(track, playlist, at: 0)) {
                for (index, position) in zip(added, starts) {
                    records.append(try state.plan(entry: index, of: planned, at: position, listedIn: RecordingStateTests.video, gapWhenUnavailable: true).record)
                }
            }
        }
        return (state, records)
    }

    /// A written file of 100 bytes for each segment record.
    static func files(_ records: [RecordingEntryRecord]) -> [PackageFolder.WrittenFile] {
        records.flatMap(RecordingEviction.paths).map { PackageFolder.WrittenFile(path: SafeRelativePath($0)!, byteCount: 100, sha256: SHA256Hasher.hash(Array($0.utf8))) }
    }

    static func package(_ state: RecordingState, _ records: [RecordingEntryRecord], written: Int) throws -> RecordingPackage {
        try RecordingPackage(source: RecordingPlanningTests.Harness.source, records: records, written: written, files: files(records), unavailable: [:],
                             trimming: false, headers: state.headers, dateRanges: state.dateRanges, evictions: RecordingEvictions())
    }

    @Test("every written entry is in its track's playlist, a VOD ending in ENDLIST, with its file in the media")
    func whole() throws {
        let (state, records) = try Self.planned(RecordingPlanningTests.playlist(0...3))
        let package = try Self.package(state, records, written: Int.max)
        #expect(package.segments == 4 && package.primary.duration == 4)
        #expect(package.media.count == 8 && package.contents.emptyFiles.isEmpty)
        let video = try #require(package.contents.tracks.first?.playlistText)
        #expect(video.contains("#EXT-X-PLAYLIST-TYPE:VOD") && video.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(video.components(separatedBy: "#EXTINF:").count == 5)
        #expect(package.contents.tracks.map(\.info.id) == ["video", "audio-1"])
    }

    @Test("cut at the last variant entry whose files are all written; the rendition at what starts before the variant's end")
    func cut() throws {
        let (state, records) = try Self.planned(RecordingPlanningTests.playlist(0...3))
        let secondVideo = records.filter { $0.track == "video" }[1]
        let package = try Self.package(state, records, written: secondVideo.resourcesEnd)
        #expect(package.segments == 2 && package.primary.duration == 2)
        #expect(package.media.allSatisfy { !$0.path.value.hasSuffix("/2.ts") && !$0.path.value.hasSuffix("/3.ts") })
    }

    @Test("media that left the window before it was fetched is a gap: EXT-X-GAP naming the track's empty gap file, listed among the files")
    func gaps() throws {
        var (state, records) = try Self.planned(RecordingPlanningTests.playlist(0...1))
        // The next playlist starts at 3: 2 left the window unseen.
        for track in [0, 1] {
            for case .plan(let planned, let added, let starts) in state.handle(RecordingStateTests.snapshot(track, RecordingPlanningTests.playlist(3...3), at: 3)) {
                for (index, position) in zip(added, starts) {
                    records.append(try state.plan(entry: index, of: planned, at: position, listedIn: RecordingStateTests.video, gapWhenUnavailable: true).record)
                }
            }
        }
        #expect(records.contains { $0.kind == "missed" && $0.sequence == 2 })
        let package = try Self.package(state, records, written: Int.max)
        #expect(package.contents.emptyFiles.map(\.value).contains("video/gap.ts"))
        let video = try #require(package.contents.tracks.first?.playlistText)
        #expect(video.contains("#EXT-X-GAP\n#EXTINF:1"), "the gap keeps its duration")
        #expect(!video.contains("#EXT-X-DISCONTINUITY") && video.contains("#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:03.000Z\n#EXTINF:1,\n3.ts"),
                "the timeline stays true across the gap: no discontinuity, the next segment dated by the wall clock")
    }
}
