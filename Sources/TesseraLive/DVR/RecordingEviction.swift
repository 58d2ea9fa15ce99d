import TesseraSupport
/// Which of a recording's oldest entries rolling retention evicts now, a pure function: of the
/// variant's entries whose files are all written, once what they hold is over the limit, the
/// oldest while it is still over or while what would remain stays within a twentieth under it
/// (`batch`: an eviction — its fsyncs, a rewritten timeline — comes once every 30 s of a 10-minute
/// limit, not after every segment; never the last), with the rendition entries that end before the first one kept (their
/// alignment's margin earlier: a target duration at the live edge), and the files to delete — their
/// segments, and each map no remaining entry uses.
enum RecordingEviction {
    /// An eviction: the entries, the files and their bytes.
    struct Plan: Equatable {
        var records: [RecordingEntryRecord] = []
        var files: [String] = []
        var bytes: UInt64 = 0
    }

    /// How far under the limit an eviction may go, as a share of it, so that evictions come in
    /// batches: what is kept stays between 95 % and 100 % of the limit.
    static let batch = 0.05

    /// The eviction of `records` (every track's, in planning order) under `retention`, `written`
    /// resources written; `margins` each rendition track's alignment margin, by ID; `size`
    /// gives a file's bytes (nil: no file).
    static func plan(_ records: [RecordingEntryRecord], written: Int, retention: RecordingRetention, primary: String,
                     margins: [String: Double] = [:], size: (String) -> UInt64?) -> Plan {
        let done = records.filter { $0.resourcesEnd <= written }
        let primaries = done.filter { $0.track == primary }
        guard primaries.count > 1 else { return Plan() }
        var evicted = 0
        switch retention {
        case .duration(let limit):
            let seconds = limit.inSeconds
            let floor = seconds - seconds * batch
            var remaining = primaries.reduce(0) { $0 + $1.duration }
            guard remaining > seconds + 1e-9 else { return Plan() }
            while evicted < primaries.count - 1 {
                let after = remaining - primaries[evicted].duration
                guard remaining > seconds + 1e-9 || after >= floor - 1e-9 else { break }
                remaining = after
                evicted += 1
            }
        case .bytes(let limit):
            var total: UInt64 = 0
            var counted: Set<String> = []
            for record in done { for path in paths(of: record) where counted.insert(path).inserted { total += size(path) ?? 0 } }
            guard total > limit else { return Plan() }
            let floor = limit - UInt64(Double(limit) * batch)
            while evicted < primaries.count - 1 {
                let freed = files(of: done, before: primaries[evicted + 1].position, through: primaries[evicted], primary: primary, margins: margins)
                let after = freed.reduce(total) { sum, path in sum - min(sum, counted.contains(path) ? size(path) ?? 0 : 0) }
                guard total > limit || after >= floor else { break }
                total = after
                counted.subtract(freed)
                evicted += 1
            }
        }
        guard evicted > 0 else { return Plan() }
        let start = primaries[evicted].position
        let last = primaries[evicted - 1]
        let gone = done.filter { record in
            record.track == primary ? record.sequence <= last.sequence : record.position + record.duration + (margins[record.track] ?? 0) <= start + 1e-9
        }
        // Each track's evicted entries must be its oldest: stop at its first one kept.
        var keptTracks: Set<String> = []
        var chosen: [RecordingEntryRecord] = []
        let goneKeys = Set(gone.map { Key($0) })
        for record in records {
            if goneKeys.contains(Key(record)), !keptTracks.contains(record.track) { chosen.append(record) } else { keptTracks.insert(record.track) }
        }
        let chosenKeys = Set(chosen.map { Key($0) })
        let stillUsed = Set(records.filter { !chosenKeys.contains(Key($0)) }.flatMap(paths))
        var plan = Plan(records: chosen)
        for path in Set(chosen.flatMap(paths)).subtracting(stillUsed).sorted() {
            plan.files.append(path)
            plan.bytes += size(path) ?? 0
        }
        return plan
    }

    private struct Key: Hashable {
        let track: String
        let sequence: UInt64
        init(_ record: RecordingEntryRecord) {
            track = record.track
            sequence = record.sequence
        }
    }

    /// The files `record` uses: its segment's and its map's.
    static func paths(of record: RecordingEntryRecord) -> [String] {
        guard record.kind == "segment" else { return [] }
        return [record.track + "/" + record.name] + (record.map.map { [record.track + "/" + $0] } ?? [])
    }

    /// The segment files freed when the variant's entries through `last` go, with the
    /// rendition entries ending before `start` (maps are counted once nothing uses them).
    private static func files(of records: [RecordingEntryRecord], before start: Double, through last: RecordingEntryRecord,
                              primary: String, margins: [String: Double]) -> [String] {
        records.filter { record in
            record.track == primary ? record.sequence <= last.sequence : record.position + record.duration + (margins[record.track] ?? 0) <= start + 1e-9
        }.flatMap { paths(of: $0).prefix(1) }
    }
}
