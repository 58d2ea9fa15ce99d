import TesseraHLS

/// What rolling retention has evicted from a recording so far, cumulative — kept durably beside
/// its checkpoints (`.name.tessera-evictions`, one line per eviction, the last one current), so
/// a resume neither restores what was evicted nor forgets that it was: each track's evicted
/// media sequence numbers (always its oldest, one run), the variant's segments and seconds,
/// and bytes of every track. URL-free.
struct RecordingEvictions: Codable, Equatable, Sendable {
    /// By track ID: the first and last media sequence number evicted.
    var ranges: [String: [UInt64]] = [:]
    /// The variant's segments (gaps included) evicted.
    var segments = 0
    /// Their seconds.
    var duration = 0.0
    /// Bytes of files deleted, every track's.
    var bytes: UInt64 = 0

    /// Whether `record` was evicted.
    func covers(_ record: RecordingEntryRecord) -> Bool {
        guard let range = ranges[record.track], range.count == 2 else { return false }
        return record.sequence <= range[1]
    }

    /// Adds the eviction of `records` (a track's oldest) and `bytes` of their files.
    mutating func add(_ records: [RecordingEntryRecord], primary: String, bytes: UInt64) {
        for record in records {
            let range = ranges[record.track]
            ranges[record.track] = [range.map { min($0[0], record.sequence) } ?? record.sequence, max(range?.last ?? 0, record.sequence)]
            if record.track == primary {
                segments += 1
                duration += record.duration
            }
        }
        self.bytes += bytes
    }

    /// The manifest's entries, by track ID.
    var manifest: [PackageManifest.Eviction] {
        ranges.keys.sorted().compactMap { track in
            guard let range = ranges[track], range.count == 2 else { return nil }
            return PackageManifest.Eviction(track: track, firstMediaSequence: range[0], lastMediaSequence: range[1])
        }
    }
}
