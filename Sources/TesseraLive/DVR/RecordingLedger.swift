import TesseraHLS

/// A recording's durable account of itself beside its checkpoint: the timeline log (every
/// entry planned, appended before any of its fetches is queued) and, under rolling retention,
/// the eviction log and the entries in memory that an eviction rewrites the timeline without.
/// One owner at a time (held in a lock).
final class RecordingLedger {
    let timeline: CheckpointLog<RecordingEntryRecord>
    let evictionLog: CheckpointLog<RecordingEvictions>
    /// The entries the timeline holds (what a commit, a snapshot and an eviction are made of).
    private(set) var records: [RecordingEntryRecord]
    /// What was evicted so far.
    private(set) var evictions: RecordingEvictions

    /// A ledger over the two logs.
    init(timeline: CheckpointLog<RecordingEntryRecord>, evictionLog: CheckpointLog<RecordingEvictions>) {
        self.timeline = timeline
        self.evictionLog = evictionLog
        records = []
        evictions = evictionLog.restorable.last ?? RecordingEvictions()
    }

    /// The timeline restarts as `kept` (a resume's).
    /// - Throws: `destination-unwritable`.
    func reset(keeping kept: [RecordingEntryRecord]) throws(HLSError) {
        try timeline.reset(keeping: kept)
        records = kept
    }

    /// Appends `new` durably.
    /// - Throws: `destination-unwritable`.
    func append(_ new: [RecordingEntryRecord]) throws(HLSError) {
        try timeline.append(new)
        records += new
    }

    /// Records durably that `evicted` (and `bytes` of their files) are gone, then rewrites the
    /// timeline without them — so a crash between the two still knows what was evicted.
    /// - Throws: `destination-unwritable`.
    func evict(_ evicted: [RecordingEntryRecord], bytes: UInt64, primary: String) throws(HLSError) {
        var next = evictions
        next.add(evicted, primary: primary, bytes: bytes)
        try evictionLog.append([next])
        evictions = next
        records.removeAll { next.covers($0) }
        try timeline.reset(keeping: records)
    }

    /// Deletes both logs (the recording committed, or what they vouched for is gone).
    func remove() {
        timeline.remove()
        evictionLog.remove()
    }
}
