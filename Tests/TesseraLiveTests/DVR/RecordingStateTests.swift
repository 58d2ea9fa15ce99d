import Foundation
import Testing
@testable import TesseraHLS
import TesseraPlaylist
@testable import TesseraLive

/// The recording's coordination driven directly — inputs in, actions out — without sockets,
/// files, tasks or a clock.
@Suite("Recording state: snapshots, retries, ends, writes and restarts as inputs; what the session does as actions")
struct RecordingStateTests {
    static let video = URL(string: "https://origin.example/v.m3u8")!
    static let audio = URL(string: "https://origin.example/a.m3u8")!

    static func state(duration: Double? = nil, onRestart: LiveRecording.RestartPolicy = .continue, evicts: Bool = false) -> RecordingState {
        let tracks = [RecordingTrackPlan(id: "video", role: .video, rendition: nil, timeline: RecordingTimeline(start: .windowStart, limit: duration)),
                      RecordingTrackPlan(id: "audio-1", role: .audio, rendition: 0, timeline: RecordingTimeline(start: .windowStart, limit: nil))]
        return RecordingState(from: RecordingPlanning.Planned(tracks: tracks, resources: 0), onRestart: onRestart, evicts: evicts)
    }

    static func snapshot(_ track: Int, _ playlist: MediaPlaylist, at seconds: Int) -> RecordingState.Input {
        guard case .snapshot(let track, let snapshot) = RecordingPlanningTests.snapshot(track, playlist, at: seconds) else { preconditionFailure() }
        return .snapshot(track: track, snapshot, url: track == 0 ? video : audio)
    }

    static func written(_ resources: Int, unavailable: Int = 0, consecutive: Int = 0, snapshot: Bool = false) -> RecordingState.Input {
        let last = unavailable > 0 ? (ResourceIdentity(stream: .main, kind: .segment, mediaSequence: 7), HLSError(.httpStatus, "HTTP 404")) : nil
        return .written(RecordingState.Written(resources: resources, bytes: UInt64(resources) * 100, unavailable: unavailable, lastUnavailable: last,
                                               consecutiveUnavailable: consecutive, snapshotAsked: snapshot))
    }

    /// The actions' shapes, for comparison.
    static func kinds(_ actions: [RecordingState.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .route(let stream, _, _): "route \(stream.rawValue)"
            case .plan(let track, let added, _): "plan \(track) \(added.lowerBound)..<\(added.upperBound)"
            case .restarted(let track, _): "restarted \(track)"
            case .retire(let stream): "retire \(stream.rawValue)"
            case .over: "over"
            case .progress(let progress): "progress \(progress.segments)/\(progress.gaps)"
            case .unavailable(let track, let msn, _): "unavailable \(track) \(msn)"
            case .stop: "stop"
            case .evict: "evict"
            case .publishSnapshot: "snapshot"
            }
        }
    }

    /// Plans every entry the actions name, as the session does, returning the resources planned.
    static func planAll(_ actions: [RecordingState.Action], in state: inout RecordingState) throws -> Int {
        for case .plan(let track, let added, let starts) in actions {
            for (index, position) in zip(added, starts) {
                _ = try state.plan(entry: index, of: track, at: position, listedIn: track == 0 ? video : audio, gapWhenUnavailable: true)
            }
        }
        return state.planned.resources
    }

    @Test("a primary snapshot routes its stream and plans its new entries; the rendition's then plans what the primary's span covers")
    func snapshots() throws {
        var state = Self.state()
        #expect(Self.kinds(state.handle(Self.snapshot(0, RecordingPlanningTests.playlist(0...2), at: 0))) == ["route main", "plan 0 0..<3"])
        #expect(Self.kinds(state.handle(Self.snapshot(1, RecordingPlanningTests.playlist(0...2), at: 0))) == ["route audio-1", "plan 1 0..<3"])
        #expect(Self.kinds(state.handle(Self.snapshot(0, RecordingPlanningTests.playlist(1...3), at: 1))) == ["route main", "plan 0 3..<4"])
        // What the playlist no longer lists is forgotten (the timeline log holds it): the
        // timeline holds a window, however long the recording.
        #expect(state.planned.tracks[0].timeline.entries.map(\.segment.mediaSequence) == [1, 2, 3])
        #expect(state.planned.tracks[0].timeline.forgotten == 1 && state.planned.tracks[0].timeline.count == 4)
    }

    @Test("the duration reached ends the primary; the rendition ends when covered, and the planning is over with both retired")
    func durationReached() throws {
        var state = Self.state(duration: 2)
        _ = state.handle(Self.snapshot(1, RecordingPlanningTests.playlist(0...4), at: 0))
        let actions = state.handle(Self.snapshot(0, RecordingPlanningTests.playlist(0...4), at: 0))
        #expect(state.planned.end == .duration && state.primaryDone)
        #expect(Self.kinds(actions) == ["route main", "plan 0 0..<2", "plan 1 0..<2", "retire main", "retire audio-1", "over"])
    }

    @Test("after the primary is done, three reload retries of a rendition end it where it is")
    func renditionRetries() throws {
        var state = Self.state()
        _ = state.handle(Self.snapshot(0, RecordingPlanningTests.playlist(0...1, endList: true), at: 0))
        #expect(state.primaryDone && state.planned.end == .endList)
        #expect(!Self.kinds(state.handle(.retrying(track: 1))).contains("over"))
        #expect(!Self.kinds(state.handle(.retrying(track: 1))).contains("over"))
        #expect(Self.kinds(state.handle(.retrying(track: 1))) == ["retire main", "retire audio-1", "over"])
    }

    @Test("a track's follow failing before the primary is done ends the planning with its failure; a cancelled one does not")
    func followFailed() {
        var cancelled = Self.state()
        #expect(!Self.kinds(cancelled.handle(.ended(track: 1, HLSError(.cancelled, "stop")))).contains("over"))
        var failed = Self.state()
        #expect(Self.kinds(failed.handle(.ended(track: 1, HLSError(.httpStatus, "HTTP 410")))) == ["over"])
        #expect(failed.planned.end == .failed(code: .httpStatus, reason: "HTTP 410"))
    }

    @Test("a restarted source is said; under --on-restart end the planning is over there, with what came before")
    func restart() throws {
        var going = Self.state()
        var ending = Self.state(onRestart: .end)
        for state in [0, 1] {
            var subject = state == 0 ? going : ending
            _ = subject.handle(Self.snapshot(0, RecordingPlanningTests.playlist(5...7, at: 0), at: 0))
            // Numbers from zero again, the same names, dated later: the source started again.
            let actions = Self.kinds(subject.handle(Self.snapshot(0, RecordingPlanningTests.playlist(0...1, at: 20), at: 20)))
            #expect(actions.contains("restarted video"))
            if state == 0 { going = subject } else { ending = subject }
            #expect(actions.contains("over") == (state == 1))
        }
        guard case .sourceRestarted(let reason) = ending.planned.end else { Issue.record("ended \(String(describing: ending.planned.end))"); return }
        #expect(reason.hasPrefix("video: the source restarted: "))
        #expect(going.planned.end == nil && going.restarts == 1)
    }

    @Test("writes report progress from the planned marks, each newly unavailable segment once, and a stop after too many in a row")
    func writes() throws {
        var state = Self.state(evicts: true)
        let planned = try Self.planAll(state.handle(Self.snapshot(0, RecordingPlanningTests.playlist(0...3), at: 0)), in: &state)
        #expect(planned == 4)
        #expect(Self.kinds(state.handle(Self.written(2))) == ["progress 2/0", "evict"])
        guard case .progress(let progress) = state.handle(Self.written(2)).first else { Issue.record("no progress"); return }
        #expect(progress.duration == 2 && progress.edgeLag == 2 && progress.bytes == 200)
        #expect(Self.kinds(state.handle(Self.written(3, unavailable: 1, consecutive: 1))) == ["unavailable video 7", "progress 3/1", "evict"])
        #expect(Self.kinds(state.handle(Self.written(3, unavailable: 1, consecutive: 1, snapshot: true))) == ["progress 3/1", "evict", "snapshot"],
                "an unavailable segment is told once")
        let gone = Self.kinds(state.handle(Self.written(4, unavailable: 2, consecutive: LiveRecording.maximumConsecutiveUnavailable)))
        #expect(gone == ["unavailable video 7", "stop", "progress 4/2", "evict"])
        #expect(state.failure?.message.hasPrefix("\(LiveRecording.maximumConsecutiveUnavailable) segments in a row could not be fetched") == true)
    }

    @Test("retries are counted for the progress, every one")
    func retries() {
        var state = Self.state()
        for _ in 0..<5 { #expect(state.handle(.retried).isEmpty) }
        guard case .progress(let progress) = state.handle(Self.written(0)).first else { Issue.record("no progress"); return }
        #expect(progress.retries == 5)
    }

    @Test("a stop asked ends the planning: later snapshots plan nothing, writes still report")
    func stopAsked() {
        var state = Self.state()
        #expect(Self.kinds(state.handle(.stopAsked)) == ["over"])
        #expect(Self.kinds(state.handle(Self.snapshot(0, RecordingPlanningTests.playlist(0...2), at: 0))) == ["over"])
        #expect(state.planned.tracks[0].timeline.entries.isEmpty)
        #expect(Self.kinds(state.handle(Self.written(0))) == ["progress 0/0"])
    }

    @Test("an abandoned recording's planning is over, the reason kept")
    func abandoned() {
        var state = Self.state()
        #expect(Self.kinds(state.handle(.abandoned(HLSError(.insufficientSpace, "full")))) == ["over"])
        #expect(state.planned.abandon?.code == .insufficientSpace)
    }
}
