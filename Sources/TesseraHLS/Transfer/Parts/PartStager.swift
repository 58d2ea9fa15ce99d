#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// LL-HLS part staging for a live job (`PartStaging`): told every playlist a track's reloader
/// finds (before the planner sees it), it fetches through the transfer's resource processor each
/// part of each segment that completes after tune-in — as the part is published, and with
/// `preloadHints` the hinted next part before — and holds the bodies within the count and byte
/// bounds; when the planner plans the segment, `promotion(for:stream:)` hands the transfer its
/// parts to join, proven (`PartProof`) against what the playlist listed for the segment the
/// first time it was complete. Whatever cannot be proven is fetched whole, counted and reported
/// (`fellBack`). Parts of segments planned, passed or of a retired track are dropped.
package final class PartStager: Sendable {
    /// How a part's fetch ended.
    private enum Landed: Sendable {
        case body(ResourceBody)
        case failed(String)
    }

    /// A part staged or in flight.
    private struct Staged {
        let id: Int
        let uri: String
        let range: PlaylistByteRange?
        let task: Task<Landed, Never>
    }

    /// A preload hint in flight or landed, not yet listed as a part.
    private struct Hint {
        let id: Int
        let uri: String
        let start: UInt64
        let task: Task<Landed, Never>
        var failed = false
    }

    private struct Track {
        /// Nothing at or below it is staged: complete at tune-in, or planned already.
        var floor: UInt64?
        var parts: [UInt64: [Int: Staged]] = [:]
        /// Each segment as its playlist listed it the first time it was complete.
        var parents: [UInt64: MediaSegment] = [:]
        /// Segments not to stage, and why (the stage full, a part that failed).
        var refused: [UInt64: String] = [:]
        var hint: Hint?
        var retired = false

        func excludes(_ msn: UInt64) -> Bool { floor.map { msn <= $0 } ?? false }
    }

    /// What a staged body belongs to, for its landing.
    private enum Owner {
        case part(StreamIdentity, UInt64, Int)
        case hint(StreamIdentity)
    }

    private struct State {
        var tracks: [StreamIdentity: Track] = [:]
        var owners: [Int: (owner: Owner, bytes: UInt64)] = [:]
        var bytes: UInt64 = 0
        var report = PartStagingReport()
        var finished = false
        var nextID = 0
    }

    private let options: PartStaging
    private let processor: ResourceProcessor
    private let spillFolder: String
    private let fellBack: @Sendable (StreamIdentity, UInt64, String) -> Void
    private let state = Lock(State())

    /// A stager fetching through `processor` (spilling joins to its spill folder), telling
    /// `fellBack` each segment whose staged parts could not be promoted, and why.
    init(options: PartStaging, processor: ResourceProcessor, fellBack: @escaping @Sendable (StreamIdentity, UInt64, String) -> Void) {
        self.options = options
        self.processor = processor
        spillFolder = processor.spillFolder
        self.fellBack = fellBack
    }

    /// What was staged, promoted and fell back so far.
    package var report: PartStagingReport { state.withLock { $0.report } }

    /// Takes in a playlist of `stream`: notes each newly complete segment as listed, and starts
    /// fetching the parts (and the preload hint) not staged yet.
    package func observe(_ playlist: MediaPlaylist, stream: StreamIdentity) {
        state.withLock { state in
            guard !state.finished else { return }
            // What is complete at tune-in is fetched whole.
            var track = state.tracks[stream] ?? Track(floor: playlist.segments.last?.mediaSequence ?? (playlist.mediaSequence > 0 ? playlist.mediaSequence - 1 : nil))
            defer { state.tracks[stream] = track }
            guard !track.retired else { return }
            for segment in playlist.segments where !track.excludes(segment.mediaSequence) && !segment.parts.isEmpty {
                let msn = segment.mediaSequence
                if track.parents[msn] == nil { track.parents[msn] = segment }
                guard !segment.keys.contains(where: { $0.method != .none }) else { continue }
                for (index, part) in segment.parts.enumerated() { stage(part, msn: msn, index: index, stream: stream, &track, &state) }
            }
            let pending = playlist.segments.last.map { $0.mediaSequence + 1 } ?? playlist.mediaSequence
            if !track.excludes(pending), !(playlist.segments.last?.keys.contains { $0.method != .none } ?? false) {
                for (index, part) in playlist.pendingParts.enumerated() { stage(part, msn: pending, index: index, stream: stream, &track, &state) }
            }
            // A track the planner does not take from (yet) must not grow them without end.
            Self.keepNewest(&track.parents, Self.maximumSegmentsNoted)
            Self.keepNewest(&track.refused, Self.maximumSegmentsNoted)
            guard options.preloadHints else { return }
            let current = playlist.preloadHints.first { $0.type == .part }
            if let hint = track.hint, current.map({ $0.uri != hint.uri || ($0.byteRangeStart ?? 0) != hint.start }) ?? true {
                discard(hint, &state)
                track.hint = nil
            }
            if let current, track.hint == nil, !track.excludes(pending), current.byteRangeLength != 0 {
                startHint(current, msn: pending, index: playlist.pendingParts.count, stream: stream, &track, &state)
            }
        }
    }

    /// The staged parts of `segment` (of `stream`) for the transfer to join, or nil when none
    /// were staged (it is fetched whole, as without parts). Everything staged for it and before
    /// it leaves the stage.
    package func promotion(for segment: MediaSegment, stream: StreamIdentity) -> StagedResource? {
        let msn = segment.mediaSequence
        let taken = state.withLock { state -> (parts: [Int: Staged], listed: MediaSegment?, refused: String?)? in
            guard var track = state.tracks[stream] else { return nil }
            defer { state.tracks[stream] = track }
            // Its parts go to the join (held, still counted, until it is done); older ones are dropped.
            let parts = track.parts.removeValue(forKey: msn), listed = track.parents[msn], refused = track.refused[msn]
            drop(through: msn, &track, &state)
            guard parts != nil || refused != nil else { return nil }
            return (parts ?? [:], listed, refused)
        }
        guard let taken else { return nil }
        let listed = taken.listed ?? segment
        if let reason = taken.refused ?? (listed.uri != segment.uri || listed.duration != segment.duration ? "the playlist listed it otherwise before" : nil)
            ?? PartProof.check(listed.parts, for: segment) {
            state.withLock { state in
                for part in taken.parts.values {
                    part.task.cancel()
                    release(part.id, &state)
                }
            }
            fall(back: reason, stream, msn)
            return nil
        }
        return StagedResource { [self] in await join(taken.parts, listed: listed.parts, stream: stream, msn: msn) }
    }

    /// Drops everything staged for `stream` up to `msn` (planned: a gap, or fetched whole).
    package func advance(_ stream: StreamIdentity, through msn: UInt64) {
        state.withLock { state in
            guard var track = state.tracks[stream] else { return }
            drop(through: msn, &track, &state)
            state.tracks[stream] = track
        }
    }

    /// `stream` takes nothing more: its staged parts are dropped and no more are fetched.
    package func retire(_ stream: StreamIdentity) {
        state.withLock { state in
            guard var track = state.tracks[stream] else { return }
            drop(through: .max, &track, &state)
            if let hint = track.hint { discard(hint, &state) }
            track.hint = nil
            track.retired = true
            state.tracks[stream] = track
        }
    }

    /// The recording is over: every fetch is cancelled, the stage emptied.
    package func finish() {
        let streams = state.withLock { state -> [StreamIdentity] in
            state.finished = true
            return Array(state.tracks.keys)
        }
        for stream in streams { retire(stream) }
        // Parts handed to joins that will not run now are not waited for.
        state.withLock { state in
            state.owners = [:]
            state.bytes = 0
        }
    }

    // MARK: Staging (under the lock)

    private func stage(_ part: PartialSegment, msn: UInt64, index: Int, stream: StreamIdentity, _ track: inout Track, _ state: inout State) {
        guard track.parts[msn]?[index] == nil, track.refused[msn] == nil, !part.isGap else { return }
        if let hint = track.hint, hint.uri == part.uri, hint.start == (part.byteRange?.resolvedOffset ?? 0) {
            track.hint = nil
            if !hint.failed {
                state.report.hintsConfirmed += 1
                state.owners[hint.id]?.owner = .part(stream, msn, index)
                track.parts[msn, default: [:]][index] = Staged(id: hint.id, uri: part.uri, range: part.byteRange, task: hint.task)
                return
            }
            discard(hint, &state)
        }
        guard state.owners.count < options.maximumParts else {
            track.refused[msn] = "the stage already held \(options.maximumParts) parts"
            return
        }
        let id = state.nextID
        state.nextID += 1
        let range = part.byteRange.map(ByteRange.init)
        let task = Task { [self] in await fetch(part.uri, range: range, stream: stream, msn: msn, index: index, id: id) }
        state.owners[id] = (.part(stream, msn, index), 0)
        track.parts[msn, default: [:]][index] = Staged(id: id, uri: part.uri, range: part.byteRange, task: task)
    }

    private func startHint(_ hint: PreloadHint, msn: UInt64, index: Int, stream: StreamIdentity, _ track: inout Track, _ state: inout State) {
        let start = hint.byteRangeStart ?? 0
        guard state.owners.count < options.maximumParts,
              !(track.parts[msn]?.values.contains { $0.uri == hint.uri && ($0.range?.resolvedOffset ?? 0) == start } ?? false) else { return }
        let id = state.nextID
        state.nextID += 1
        let range = start > 0 || hint.byteRangeLength != nil ? ByteRange(offset: start, length: hint.byteRangeLength) : nil
        let task = Task { [self] in await fetch(hint.uri, range: range, stream: stream, msn: msn, index: index, id: id) }
        state.owners[id] = (.hint(stream), 0)
        state.report.hintsFetched += 1
        track.hint = Hint(id: id, uri: hint.uri, start: start, task: task)
    }

    private func discard(_ hint: Hint, _ state: inout State) {
        hint.task.cancel()
        release(hint.id, &state)
        state.report.hintsDiscarded += 1
    }

    private func drop(through msn: UInt64, _ track: inout Track, _ state: inout State) {
        track.floor = max(track.floor ?? 0, msn)
        for key in Array(track.parts.keys) where key <= msn {
            for part in track.parts.removeValue(forKey: key)?.values.map({ $0 }) ?? [] {
                part.task.cancel()
                release(part.id, &state)
            }
        }
        for key in Array(track.parents.keys) where key <= msn { track.parents[key] = nil }
        for key in Array(track.refused.keys) where key <= msn { track.refused[key] = nil }
    }

    /// Segments a track notes (listings, refusals) ahead of what the planner took: far more than
    /// a window holds, so only a track nothing is taken from ever reaches it.
    static let maximumSegmentsNoted = 512

    /// Keeps the `limit` highest media sequence numbers of `table`.
    private static func keepNewest<Value>(_ table: inout [UInt64: Value], _ limit: Int) {
        guard table.count > limit else { return }
        for key in table.keys.sorted().prefix(table.count - limit) { table[key] = nil }
    }

    private func release(_ id: Int, _ state: inout State) {
        if let owned = state.owners.removeValue(forKey: id) { state.bytes -= owned.bytes }
    }

    // MARK: Fetching and joining

    /// Fetches one part (or hint) through the processor and lands it within the byte bound.
    private func fetch(_ uri: String, range: ByteRange?, stream: StreamIdentity, msn: UInt64, index: Int, id: Int) async -> Landed {
        let resource = PlannedResource(identity: ResourceIdentity(stream: stream, kind: .part, mediaSequence: msn, partIndex: index, byteRange: range),
                                       encryption: nil, uri: uri)
        var planned = PlannedFetch(resource)
        planned.maximumBytes = options.maximumPartBytes
        let body: ResourceBody
        do throws(HLSError) {
            body = try await processor.process(planned, firstIndex: 0)[0].body
        } catch {
            state.withLock { state in
                guard case .hint(let stream)? = state.owners[id]?.owner else { return }
                state.tracks[stream]?.hint?.failed = true
            }
            return .failed(error.message)
        }
        let count = body.count
        let kept = state.withLock { state -> String? in
            guard let owned = state.owners[id] else { return "it was dropped" }
            guard state.bytes + count <= options.maximumBytes else {
                if case .part(let stream, let msn, _) = owned.owner { state.tracks[stream]?.refused[msn] = "the stage already held \(state.bytes) bytes" }
                return "the stage was full"
            }
            state.bytes += count
            state.owners[id]?.bytes = count
            state.report.fetched += 1
            state.report.bytes += count
            return nil
        }
        if let kept { return .failed(kept) }
        return .body(body)
    }

    /// The parts of segment `msn`, as `listed`, joined — or nil (counted, told) when one is
    /// missing, failed or of the wrong size, or the join is not a well-formed segment.
    private func join(_ staged: [Int: Staged], listed: [PartialSegment], stream: StreamIdentity, msn: UInt64) async -> ResourceBody? {
        defer {
            state.withLock { state in
                for part in staged.values {
                    part.task.cancel()
                    release(part.id, &state)
                }
            }
        }
        var bodies: [ResourceBody] = []
        var total: UInt64 = 0
        for (index, part) in listed.enumerated() {
            guard let job = staged[index], job.uri == part.uri, job.range == part.byteRange else {
                return fail("part \(index) was not staged as listed", stream, msn)
            }
            switch await job.task.value {
            case .failed(let reason): return fail("part \(index) could not be staged: \(reason)", stream, msn)
            case .body(let body):
                if let range = part.byteRange, body.count != range.length {
                    return fail("part \(index) answered \(body.count) bytes for a byte range of \(range.length)", stream, msn)
                }
                total += body.count
                bodies.append(body)
            }
        }
        let settings = processor.settings
        let collector = BodyCollector(expected: total, budget: processor.budget, inMemoryLimit: settings.maximumInMemoryResourceBytes,
                                      maximumBytes: settings.maximumResourceBytes, spillFolder: spillFolder)
        do throws(HLSError) {
            for body in bodies {
                try body.forEachChunk { chunk throws(HLSError) in
                    do throws(HTTPError) { try collector.append(chunk) } catch { throw HLSError(.budgetExceeded, error.message) }
                }
            }
        } catch {
            return fail("the parts could not be joined: \(error.message)", stream, msn)
        }
        bodies.removeAll()
        let joined = collector.finish()
        if let reason = PartProof.check(joined: joined) { return fail(reason, stream, msn) }
        state.withLock { $0.report.promoted += 1 }
        return joined
    }

    private func fail(_ reason: String, _ stream: StreamIdentity, _ msn: UInt64) -> ResourceBody? {
        fall(back: reason, stream, msn)
        return nil
    }

    private func fall(back reason: String, _ stream: StreamIdentity, _ msn: UInt64) {
        state.withLock { $0.report.fellBack += 1 }
        fellBack(stream, msn, reason)
    }
}
