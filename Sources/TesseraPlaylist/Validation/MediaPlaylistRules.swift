#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Media playlist and segment rules (RFC 8216bis §4.4.3-4.4.4, §8).
enum MediaPlaylistRules {
    static func check(_ p: MediaPlaylist, _ context: inout RuleContext) {
        if let target = p.targetDuration, target < 1 {
            context.add(.targetDurationTooSmall, .error, nil, "4.4.3.1", "EXT-X-TARGETDURATION must be at least 1; it is \(target).")
        }
        let keys = distinctKeys(p)
        versions(p, keys: keys, &context)
        AttributeSyntaxRules.check(keys: keys, &context)
        p.segments.withUnsafeBufferPointer { segments in
            // Fields are read through the buffer: copying each segment would retain all of
            // its references, which cost more than the checks themselves.
            var usesDateTime = false
            for i in segments.indices where segments[i].programDateTime != nil {
                usesDateTime = true
                break
            }
            var reported = Set<Int>()   // key and map lines already checked
            var previousExtras: SharedValue<SegmentExtras>?
            var expected: Double?   // where the next segment starts by the last date and the durations since
            for i in segments.indices {
                let dateTime = segments[i].programDateTime
                if let time = dateTime?.secondsSince1970 {
                    if let expected, expected - time >= 1 {
                        context.add(.dateTimeOverlap, .error, segments[i].line, "6.2.1",
                                    "EXT-X-PROGRAM-DATE-TIME is \(FixedDecimal.format(expected - time, digits: 3)) s earlier than the previous segments end; the date-to-segment mapping is ambiguous.")
                    }
                    expected = time
                }
                expected = expected.map { $0 + segments[i].duration }
                if let target = p.targetDuration, target >= 1, segments[i].duration.rounded() > Double(target) {
                    context.add(.segmentExceedsTargetDuration, .error, segments[i].line, "4.4.3.1",
                                "EXTINF \(segments[i].durationText) rounds to more than EXT-X-TARGETDURATION \(target).")
                }
                // A run of segments shares one extras box: check its keys and map once per run.
                if let extras = segments[i].extras, extras !== previousExtras {
                    previousExtras = extras
                    checkRun(extras.value, reported: &reported, &context)
                }
                if let time = dateTime {
                    if !PlaylistValidator.hasZone(time.text) {
                        context.add(.dateTimeWithoutZone, .warning, segments[i].line, "4.4.4.6",
                                    "EXT-X-PROGRAM-DATE-TIME \(time.text) has no time zone; it is read as UTC.")
                    }
                } else if usesDateTime, segments[i].isDiscontinuity {
                    context.add(.discontinuityWithoutDateTime, .warning, segments[i].line, "6.2.1",
                                "A discontinuity segment has no EXT-X-PROGRAM-DATE-TIME while the playlist uses them.")
                }
            }
        }
        if let start = p.start {
            let total = p.segments.reduce(0) { $0 + $1.duration }
            if !p.segments.isEmpty, abs(start.timeOffset) > total {
                context.add(.startOffsetBeyondDuration, .warning, start.line, "4.4.2.2",
                            "EXT-X-START TIME-OFFSET \(start.timeOffset) is beyond the playlist's \(total) s.")
            }
        }
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
    /// Every EXT-X-KEY once (a run of segments shares its extras, so this stays O(segments + keys)).
    private static func distinctKeys(_ p: MediaPlaylist) -> [SegmentKey] {
        var seen = Set<Int>()
        var keys: [SegmentKey] = []
        p.segments.withUnsafeBufferPointer { segments in
            var previousExtras: SharedValue<SegmentExtras>?
            for i in segments.indices {
                // A run of segments shares one extras box: look at it once per run.
                guard let extras = segments[i].extras, extras !== previousExtras else { continue }
                previousExtras = extras
                for key in extras.value.keys where seen.insert(key.line.number).inserted { keys.append(key) }
                if let box = extras.value.mapBox {
                    for key in box.value.keys where seen.insert(key.line.number).inserted { keys.append(key) }
                }
            }
        }
        return keys
    }

    private static func versions(_ p: MediaPlaylist, keys: [SegmentKey], _ context: inout RuleContext) {
        var needs: [(Int, String, SourceLine?)] = []
        if let key = keys.first(where: { $0.iv != nil }) { needs.append((2, "An EXT-X-KEY IV", key.line)) }
        if let segment = p.segments.first(where: \.durationHasPoint) {
            needs.append((3, "A decimal EXTINF duration", segment.line))
        }
        if let segment = p.segments.first(where: { $0.byteRange != nil }) { needs.append((4, "EXT-X-BYTERANGE", segment.line)) }
        if p.isIFramesOnly { needs.append((4, "EXT-X-I-FRAMES-ONLY", nil)) }
        if let key = keys.first(where: { $0.method == .sampleAES }) { needs.append((5, "METHOD=SAMPLE-AES", key.line)) }
        if let key = keys.first(where: { !$0.isIdentity || $0.keyFormatVersions != nil }) {
            needs.append((5, "KEYFORMAT or KEYFORMATVERSIONS", key.line))
        }
        if let map = p.segments.first(where: { $0.map != nil })?.map {
            needs.append(p.isIFramesOnly ? (5, "EXT-X-MAP in an I-frame playlist", map.line) : (6, "EXT-X-MAP", map.line))
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
