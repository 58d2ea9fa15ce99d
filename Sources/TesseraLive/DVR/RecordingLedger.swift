import TesseraHLS

/// A recording's durable account of itself beside its checkpoint: the timeline log (every
/// entry planned, appended before any of its fetches is queued) and, under rolling retention,
/// the eviction log and the entries in memory that an eviction rewrites the timeline without.
/// Without retention the entries live in the log alone — a recording of days holds none of them
/// in memory — and a commit or a snapshot reads them back. One owner at a time (held in a lock).
final class RecordingLedger {
    let timeline: CheckpointLog<RecordingEntryRecord>
    let evictionLog: CheckpointLog<RecordingEvictions>
    /// Whether the entries are kept in memory as well (rolling retention: what it evicts from,
    /// bounded by the retention).
    let holdsRecords: Bool
    /// The entries the timeline holds, when `holdsRecords` (else empty: see `entries()`).
    private(set) var records: [RecordingEntryRecord]
    /// What was evicted so far.
    private(set) var evictions: RecordingEvictions
    /// The eviction log's lines before it is rewritten as its last: a recording of months keeps
    /// a log of a few kilobytes.
    static let evictionLogLines = 64
    /// When the timeline log, still holding evicted entries, is rewritten without them.
    private var compaction = CheckpointCompaction()

    /// A ledger over the two logs, holding the entries in memory too when `holdsRecords`.
    init(timeline: CheckpointLog<RecordingEntryRecord>, evictionLog: CheckpointLog<RecordingEvictions>, holdsRecords: Bool) {
        self.timeline = timeline
        self.evictionLog = evictionLog
        self.holdsRecords = holdsRecords
        records = []
        evictions = evictionLog.restorable.last ?? RecordingEvictions()
        evictionLog.releaseRestorable()
    }

    /// The entries the timeline holds (what a commit and a snapshot are made of): from memory,
    /// else read back from the log.
    /// - Throws: `destination-unwritable` when the log cannot be read.
    func entries() throws(HLSError) -> [RecordingEntryRecord] {
        holdsRecords ? records : try timeline.entries()
    }

    /// The timeline restarts as `kept` (a resume's).
    /// - Throws: `destination-unwritable`.
    func reset(keeping kept: [RecordingEntryRecord]) throws(HLSError) {
        try timeline.reset(keeping: kept)
        compaction.rewritten()
        timeline.releaseRestorable()
        if holdsRecords { records = kept }
    }

    /// Appends `new` durably.
    /// - Throws: `destination-unwritable`.
    func append(_ new: [RecordingEntryRecord]) throws(HLSError) {
        try timeline.append(new)
        if holdsRecords { records += new }
    }

    /// Records durably that `evicted` (and `bytes` of their files) are gone; the timeline log is
    /// rewritten without them only now and then (`CheckpointCompaction`), and a resume drops what
    /// the eviction log covers — so a crash anywhere still knows what was evicted.
    /// - Throws: `destination-unwritable`.
    func evict(_ evicted: [RecordingEntryRecord], bytes: UInt64, primary: String) throws(HLSError) {
        precondition(holdsRecords, "a ledger evicts from the entries it holds")
        var next = evictions
        next.add(evicted, primary: primary, bytes: bytes)
        // Only the last line counts: the log is rewritten as that line before it grows long.
        if evictionLog.lineCount > Self.evictionLogLines { try evictionLog.reset(keeping: [next]) } else { try evictionLog.append([next]) }
        evictions = next
        let before = records.count
        records.removeAll { next.covers($0) }
        // Not after every eviction, each a rewrite of the whole window: a restore drops what the
        // eviction log covers.
        if compaction.evicted(before - records.count, kept: records.count) { try timeline.reset(keeping: records) }
    }

    /// Deletes both logs (the recording committed, or what they vouched for is gone).
    func remove() {
        timeline.remove()
        evictionLog.remove()
    }
}
