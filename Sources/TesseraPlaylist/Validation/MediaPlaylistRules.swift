#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Media playlist and segment rules (RFC 8216bis §4.4.3-4.4.4, §8).
enum MediaPlaylistRules {
    /// Checks `p` and returns what its one pass over the segments found.
    @discardableResult
    static func check(_ p: MediaPlaylist, _ context: inout RuleContext) -> MediaPlaylistFacts {
        if let target = p.targetDuration, target < 1 {
            context.add(.targetDurationTooSmall, .error, nil, "4.4.3.1", "EXT-X-TARGETDURATION must be at least 1; it is \(target).")
        }
        // One pass over the segments gathers what the version and key rules need and the
        // segments' own findings (kept apart, so they follow those rules' findings as before).
        var facts = MediaPlaylistFacts()
        var segmentFindings = RuleContext()
        let segments = p.segments
        segments.packed.withUnsafeBufferPointer { records in
            // The stored values are read in place: making each segment would make its URI.
            var reported = Set<Int>()   // key and map lines already checked
            var previousBox: UInt32 = 0
            var previousExtras: SharedValue<SegmentExtras>?
            var expected: Double?   // where the next segment starts by the last date and the durations since
            var usesDateTime: Bool?   // whether any segment has a date, found when first needed
            // A duration that rounds above the target is above it (a cheaper test first:
            // `rounded()` is a call).
            let roundsAbove = p.targetDuration.map { $0 >= 1 ? Double($0) : .infinity } ?? .infinity
            for record in records {
                let line = SourceLine(Int(record.line))
                facts.note(hasDecimalPoint: segments.durationHasPoint(of: record), hasByteRange: record.flags & PackedSegment.rangeFlag != 0,
                           line: line)
                let dateTime = record.hasDate ? segments.programDateTime(of: record) : nil
                if let time = dateTime?.secondsSince1970 {
                    if let expected, expected - time >= 1 {
                        segmentFindings.add(.dateTimeOverlap, .error, line, "6.2.1",
                                            "EXT-X-PROGRAM-DATE-TIME is \(FixedDecimal.format(expected - time, digits: 3)) s earlier than the previous segments end; the date-to-segment mapping is ambiguous.")
                    }
                    expected = time
                }
                expected = expected.map { $0 + record.duration }
                if record.duration > roundsAbove, let target = p.targetDuration, record.duration.rounded() > Double(target) {
                    segmentFindings.add(.segmentExceedsTargetDuration, .error, line, "4.4.3.1",
                                        "EXTINF \(segments.durationText(of: record)) rounds to more than EXT-X-TARGETDURATION \(target).")
                }
                // A run of segments shares one extras box: look at its keys and map once per run.
                if record.extras != previousBox {
                    previousBox = record.extras
                    if let extras = segments.extras(of: record), extras !== previousExtras {
                        previousExtras = extras
                        facts.note(extras.value)
                        checkRun(extras.value, reported: &reported, &segmentFindings)
                    }
                }
                if let dateTime {
                    if !dateTime.hasZone {
                        segmentFindings.add(.dateTimeWithoutZone, .warning, line, "4.4.4.6",
                                            "EXT-X-PROGRAM-DATE-TIME \(dateTime.text) has no time zone; it is read as UTC.")
                    }
                } else if record.isDiscontinuity {
                    if usesDateTime == nil { usesDateTime = records.contains { $0.hasDate } }
                    if usesDateTime == true {
                        segmentFindings.add(.discontinuityWithoutDateTime, .warning, line, "6.2.1",
                                            "A discontinuity segment has no EXT-X-PROGRAM-DATE-TIME while the playlist uses them.")
                    }
                }
            }
        }
        versions(p, facts, &context)
        AttributeSyntaxRules.check(keys: facts.keys, &context)
        context.diagnostics += segmentFindings.diagnostics
        if let start = p.start {
            let total = p.segments.packed.reduce(0) { $0 + $1.duration }
            if !p.segments.isEmpty, abs(start.timeOffset) > total {
                context.add(.startOffsetBeyondDuration, .warning, start.line, "4.4.2.2",
                            "EXT-X-START TIME-OFFSET \(start.timeOffset) is beyond the playlist's \(total) s.")
            }
        }
        return facts
    }

    /// The keys and map a run of segments stands under, each tag checked once.
    private static func checkRun(_ extras: SegmentExtras, reported: inout Set<Int>, _ context: inout RuleContext) {
        for key in extras.keys where key.iv != nil && (key.method == .sampleAESCTR || key.method == .aes256GCM)
            && reported.insert(key.line.number).inserted {
            context.add(.keyIVNotAllowed, .error, key.line, "4.4.4.4", "EXT-X-KEY METHOD=\(key.method) must not have an IV.")
        }
        if let box = extras.mapBox, reported.insert(box.value.line.number).inserted {
            let map = box.value
            if map.keys.contains(where: { $0.method == .aes128 && $0.iv == nil }) {
                context.add(.encryptedMapWithoutIV, .error, map.line, "4.4.4.5",
                            "EXT-X-MAP is encrypted with AES-128 by a key without an IV.")
            }
            if let range = map.byteRange, range.offset == nil {
                context.add(.mapByteRangeWithoutOffset, .error, map.line, "4.4.4.5",
                            "EXT-X-MAP BYTERANGE must give its offset (<length>@<offset>).")
            }
        }
    }

    /// Features and the EXT-X-VERSION they need (§8).
    private static func versions(_ p: MediaPlaylist, _ facts: MediaPlaylistFacts, _ context: inout RuleContext) {
        let keys = facts.keys
        var needs: [(Int, String, SourceLine?)] = []
        if let key = keys.first(where: { $0.iv != nil }) { needs.append((2, "An EXT-X-KEY IV", key.line)) }
        if let line = facts.firstDecimalDuration { needs.append((3, "A decimal EXTINF duration", line)) }
        if let line = facts.firstByteRange { needs.append((4, "EXT-X-BYTERANGE", line)) }
        if p.isIFramesOnly { needs.append((4, "EXT-X-I-FRAMES-ONLY", nil)) }
        if let key = keys.first(where: { $0.method == .sampleAES }) { needs.append((5, "METHOD=SAMPLE-AES", key.line)) }
        if let key = keys.first(where: { !$0.isIdentity || $0.keyFormatVersions != nil }) {
            needs.append((5, "KEYFORMAT or KEYFORMATVERSIONS", key.line))
        }
        if let line = facts.firstMap {
            needs.append(p.isIFramesOnly ? (5, "EXT-X-MAP in an I-frame playlist", line) : (6, "EXT-X-MAP", line))
        }
        if let skip = p.skip {
            needs.append(skip.recentlyRemovedDateRanges == nil ? (9, "EXT-X-SKIP", skip.line)
                                                               : (10, "EXT-X-SKIP of date ranges", skip.line))
        }
        if let strongest = needs.max(by: { $0.0 < $1.0 }) {
            PlaylistValidator.require(strongest.0, for: strongest.1, declared: p.version, line: strongest.2, &context)
        }
    }
}
