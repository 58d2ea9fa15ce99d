#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// The output of a recording: each resource into the package folder (a checkpoint after every
/// one: live segments arrive seconds apart, and one lost to a crash may have left the window by
/// the time the recording is resumed), beside the URL-free
/// `RecordingLedger` (timeline and evictions). `restore` takes back what the checkpoints vouch
/// for; once the session has run, `finish` cuts the recording at the last primary entry whose
/// resources were all written — and each rendition at its last written entry that starts before
/// the primary's end — and writes its playlists and manifests; `commit` publishes the folder.
final class RecordingOutput: JobOutput {
    let source: RecordingSource
    let options: LiveRecording.Options
    let destination: URL
    /// The folder the transfer writes into.
    let writer: PackageFolder
    let ledger: Lock<RecordingLedger>
    /// The recording's coordination, shared by the planner, the transfer's progress and the cut.
    let state: Lock<RecordingState>
    private let partialPath: String
    /// Where the recording starts (`restore`): the resource index the transfer goes on from, and
    /// the resources evicted before it (which the folder no longer counts).
    private(set) var start = (resources: 0, offset: 0)
    /// What the restored timeline held of the primary.
    private(set) var restoredCounts = (entries: 0, segments: 0, gaps: 0)
    /// How the session ended, for `finish` (set by the session).
    var ending: (planned: RecordingPlanning.Planned, end: RecordingReport.End, assets: [String: InterstitialPackager.Packaged], parts: RecordingPartsReport?)?

    /// The output of `source` into `staging`, its ledger's logs opened beside the checkpoint
    /// (resumed when `resumes`).
    /// - Throws: `destination-unwritable`; `no-checkpoint` when a resume is required and there is none.
    init(source: RecordingSource, options: LiveRecording.Options, destination: URL, staging: StagingDirectory,
         checkpoint: CheckpointLog<ResourceFileRecord>, context: JobContext, fingerprint: String, resumes: Bool) throws(HLSError) {
        let paths = context.paths
        let timeline = try CheckpointLog<RecordingEntryRecord>(path: paths.timeline, fingerprint: fingerprint, resume: resumes)
        let evictions = try CheckpointLog<RecordingEvictions>(path: paths.evictions, fingerprint: fingerprint, resume: resumes)
        if options.resume == .required, timeline.restorable.isEmpty {
            throw HLSError(.noCheckpoint, "There is no recording to resume at \(destination.path)\(timeline.discarded.map { ": \($0)" } ?? "").")
        }
        self.source = source
        self.options = options
        self.destination = destination
        partialPath = paths.partial
        ledger = Lock(RecordingLedger(timeline: timeline, evictionLog: evictions, holdsRecords: options.retention != nil))
        let state = Lock(RecordingState(onRestart: options.onRestart, evicts: options.retention != nil))
        self.state = state
        writer = PackageFolder(staging: staging, checkpoint: checkpoint, spillFolder: paths.spill, checkpointBytes: 1,
                               clock: context.clock, evicts: options.retention != nil,
                               listsFromCheckpoint: true) { resource throws(HLSError) -> SafeRelativePath in
            guard let path = state.withLock({ $0.places.removeValue(forKey: resource.identity) }) else {
                throw HLSError(.destinationUnwritable, "\(resource.label) has no place in the recording.")
            }
            return path
        }
    }

    var resourcesDone: Int { writer.resourcesDone }

    /// Resources written, counting those evicted before this run.
    var written: Int { writer.resourcesDone + start.offset }

    /// What the checkpoint vouches for — the timeline entries whose every resource the folder's
    /// checkpoint holds, with files that still give their recorded sizes and SHA-256 — restored
    /// into the folder and the planner; else nothing (a fresh start).
    /// - Throws: `destination-unwritable`; `source-changed` when a restored file no longer
    ///   matches its checkpoint (the job starts over).
    func restore(_ files: [ResourceFileRecord]) throws(HLSError) -> JobRestoration {
        let limit = options.duration.map { $0.inSeconds }
        let present = Set(files.map(\.path))
        // Resources are written in order, a file each: the entries (not evicted) whose files all
        // have records — the first that does not, or does not read back as an entry, ends what
        // the checkpoint proves.
        let (timeline, evictions) = ledger.withLock { ($0.timeline.restorable, $0.evictions) }
        let records = Array(timeline.filter { !evictions.covers($0) }.prefix { record in
            record.entry != nil && RecordingEviction.paths(of: record).allSatisfy(present.contains)
        })
        let named = Set(records.flatMap(RecordingEviction.paths))
        let kept = files.filter { named.contains($0.path) }
        let done = try writer.restore(kept)
        guard done.count == kept.count, kept.count == named.count else {
            throw HLSError(.sourceChanged, "The recording's files at \(partialPath) no longer match its checkpoint.")
        }
        try ledger.withLock { ledger throws(HLSError) in try ledger.reset(keeping: records) }
        let primary = RecordingPlanner.primaryTrack
        var segments = 0, gaps = 0, duration = 0.0
        var marks: [(resources: Int, duration: Double, segments: Int, gaps: Int)] = []
        for record in records where record.track == primary {
            if record.kind == "segment" { segments += 1 } else { gaps += 1 }
            duration += record.duration
            marks.append((record.resourcesEnd, duration, segments, gaps))
        }
        restoredCounts = (records.count, segments, gaps)
        let resources = records.last?.resourcesEnd ?? 0
        let tracks = RecordingTrackPlan.tracks(of: source, restoring: records, start: options.start == .now ? .now : .windowStart, limit: limit)
        state.withLock { $0.restore(RecordingPlanning.Planned(tracks: tracks, resources: resources), marks: marks) }
        start = (resources, resources - kept.count)
        return JobRestoration(resources: resources, bytes: writer.restoredBytes, fetchedBytes: writer.restoredBytes)
    }

    /// The recording cut where everything was written, its gap files, playlists and manifests.
    /// - Throws: `nothing-recorded` when no segment was; `destination-unwritable`.
    func finish() throws(HLSError) -> RecordingReport {
        guard let (_, end, assets, _) = ending else { preconditionFailure("a recording is finished after its session") }
        // (Its fields, not the whole state: the planned timelines stay where they are.)
        let (headers, dateRanges, failed, retries, snapshots, restarts) = self.state.withLock {
            ($0.headers, $0.dateRanges, $0.failure != nil, $0.retries, $0.snapshots, $0.restarts)
        }
        let files = try writer.finishMedia()
        let (records, evictions) = try ledger.withLock { ledger throws(HLSError) in (try ledger.entries(), ledger.evictions) }
        let package = try RecordingPackage(source: source, records: records, written: written, files: files, unavailable: writer.unavailable,
                                           trimming: failed, headers: headers, dateRanges: dateRanges, evictions: evictions, assets: assets)
        guard package.segments > 0 else {
            let why: String = switch end {
            case .failed(_, let reason): reason
            case .stopped: "it was stopped first"
            case .sourceRestarted(let reason): reason
            case .endList: "the playlist ended first"
            case .duration: "no segment was listed"
            }
            throw HLSError(.nothingRecorded, "Nothing was recorded to \(destination.path): \(why)")
        }
        // Files written past the cut (a map or a rendition segment beyond it) are removed.
        let referenced = Set(package.media.map(\.path.value))
        for file in files where !referenced.contains(file.path.value) { writer.staging.remove(file.path) }
        // Interstitial assets no kept Date Range names go too (no folder: none was packaged).
        let assetsPath = writer.staging.stagingPath + "/" + InterstitialPackager.folder
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: assetsPath) {   // none: nothing was packaged there
            for entry in entries where !package.assetFolders.contains(InterstitialPackager.folder + "/" + entry) {
                FolderTree.remove(at: assetsPath + "/" + entry)
            }
            if package.assetFolders.isEmpty { FolderTree.remove(at: assetsPath) }
        }
        let manifest = try writer.finish(package.contents, media: package.media)
        // Gaps of every track: a hole in the audio is one too.
        let tracks = package.tracks
        return RecordingReport(destination: destination, end: end, segments: package.segments, duration: package.primary.duration,
                               gaps: tracks.reduce(0) { $0 + $1.recorderGaps },
                               originGaps: tracks.reduce(0) { total, track in total + track.entries.count { $0.kind == .originGap } },
                               dateRangesOmitted: package.dateRangesOmitted, retries: retries,
                               bytes: package.media.reduce(0) { $0 + $1.byteCount }, evicted: evictions.segments,
                               evictedDuration: evictions.duration, evictedBytes: evictions.bytes, snapshots: snapshots,
                               restarts: restarts, interstitials: package.interstitials, manifest: manifest)
    }

    /// Publishes the folder; the ledger's logs go with the checkpoint.
    func commit() throws(HLSError) {
        try writer.commit()
        ledger.withLock { $0.remove() }
    }

    /// A transient end (cancelled, a full or unwritable volume) keeps what the checkpoints vouch
    /// for: the same command resumes it. A refusal leaves nothing behind.
    func settle(keeping: Bool) {
        writer.settle(keeping: keeping)
        if !keeping { ledger.withLock { $0.remove() } }
    }
}
