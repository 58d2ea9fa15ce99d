#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// Whether staged LL-HLS parts may stand for their parent segment (RFC 8216bis §3.2: the parts
/// of a parent hold its media): what its playlist listed for it, and the bytes they join to. A
/// reason when they may not — the recorder then fetches the segment whole. Pure.
enum PartProof {
    /// Why the parts listed for `segment` cannot be promoted to it, or nil: none listed, an
    /// encrypted segment (parts are promoted in the clear only), a GAP part, durations that do
    /// not add up to its EXTINF (within what the written decimals round), byte ranges of its own
    /// file that do not tile its range.
    static func check(_ parts: [PartialSegment], for segment: MediaSegment) -> String? {
        guard !parts.isEmpty else { return "its parts were not listed with it" }
        if segment.keys.contains(where: { $0.method != .none }) { return "it is encrypted (parts are promoted in the clear only)" }
        if let gap = parts.firstIndex(where: \.isGap) { return "part \(gap) is GAP" }
        let sum = parts.reduce(0) { $0 + $1.duration }
        let tolerance = parts.reduce(precision(segment.durationText)) { $0 + precision($1.durationText) }
        guard abs(sum - segment.duration) <= tolerance else {
            return "its parts last \(FixedDecimal.format(sum, digits: 3)) s, its EXTINF says \(FixedDecimal.format(segment.duration, digits: 3)) s"
        }
        // Parts that are byte ranges of the segment's own file must tile its range exactly.
        let own = parts.filter { $0.uri == segment.uri }
        guard !own.isEmpty else { return nil }
        guard own.count == parts.count, parts.allSatisfy({ $0.byteRange != nil }) else {
            return "some of its parts are ranges of its own file and some are not"
        }
        var offset = segment.byteRange?.resolvedOffset ?? 0
        for (index, part) in parts.enumerated() {
            guard let range = part.byteRange, range.resolvedOffset == offset else { return "part \(index)'s byte range does not follow the one before" }
            offset += range.length
        }
        if let range = segment.byteRange, offset != range.resolvedOffset + range.length {
            return "its parts' byte ranges do not end where its own does"
        }
        return nil
    }

    /// Half a unit in the last decimal place `text` writes: how far the value may be from what
    /// it stands for.
    static func precision(_ text: String) -> Double {
        let decimals = text.firstIndex(of: ".").map { text.distance(from: $0, to: text.endIndex) - 1 } ?? 0
        var unit = 0.5
        for _ in 0..<min(decimals, 9) { unit /= 10 }
        return unit
    }

    /// Why `body`, parts joined, is not a well-formed segment, or nil: MPEG-TS must validate
    /// without an error, fMP4 must be boxes filling it with a `moof`, anything else must start as
    /// packed audio or WebVTT do.
    static func check(joined body: ResourceBody) -> String? {
        var head: [UInt8] = []
        do throws(HLSError) {
            try body.forEachChunk { chunk throws(HLSError) in if head.count < 2 * TSPacket.size { head += chunk.prefix(2 * TSPacket.size - head.count) } }
        } catch { return error.message }
        switch MediaFormat.detect(head) {
        case .mpegTS:
            var validator = TSValidator()
            do throws(HLSError) { try body.forEachChunk { chunk throws(HLSError) in validator.consume(chunk) } } catch { return error.message }
            validator.endSegment()
            return validator.finish().first { $0.severity == .error }.map { "the joined parts are not valid MPEG-TS: \($0.message)" }
        case .fragmentedMP4:
            do throws(MediaError) {
                switch body {
                case .memory(let bytes, _): _ = try MP4SegmentAssembly.segmentBoxes(MP4MemorySource(bytes))
                case .spilled(let file):
                    guard let source = MP4FileSource(path: file.path) else { return "the joined parts could not be read back" }
                    _ = try MP4SegmentAssembly.segmentBoxes(source)
                }
            } catch {
                return "the joined parts are not an fMP4 segment: \(error.message)"
            }
            return nil
        case .packedAudio, .webVTT: return nil
        case nil: return "the joined parts start as none of MPEG-TS, fMP4, packed audio or WebVTT"
        }
    }
}
