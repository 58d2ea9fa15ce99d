import Foundation
import TesseraHTTP
import TesseraPlaylist

/// The resources of a single-file TS download, resolved and checked before any media byte is
/// fetched: absolute URLs, byte ranges, the AES-128 key and IV of each segment.
struct TransportStreamPlan: Sendable {
    /// One segment to fetch.
    struct Segment: Sendable {
        let index: Int
        let url: URL
        let range: ByteRange?
        let encryption: Encryption?
        /// Whether an EXT-X-DISCONTINUITY comes before it (its discontinuity sequence differs
        /// from the previous segment's).
        let startsDiscontinuity: Bool
    }

    /// How a segment is encrypted.
    struct Encryption: Sendable {
        let keyURL: URL
        let iv: [UInt8]
    }

    let segments: [Segment]

    /// Plans `playlist` (fetched from `baseURL`), or refuses it with a typed reason.
    /// - Throws: `unsupported` for live, I-frame-only, gap, fMP4, SAMPLE-AES or non-identity
    ///   key layouts; `invalid-playlist` for unusable URIs.
    init(playlist: MediaPlaylist, baseURL: URL) throws(HLSError) {
        let source = URLRedaction.redact(baseURL)
        guard playlist.hasEndList else {
            throw HLSError(.unsupported, "\(source) is a live playlist (no EXT-X-ENDLIST); download needs a complete VOD playlist.")
        }
        guard !playlist.isIFramesOnly else {
            throw HLSError(.unsupported, "\(source) is an I-frame-only playlist; it cannot be assembled into a playable file.")
        }
        guard !playlist.segments.isEmpty else {
            throw HLSError(.unsupported, "\(source) has no segments.")
        }
        var segments: [Segment] = []
        segments.reserveCapacity(playlist.segments.count)
        for (index, segment) in playlist.segments.enumerated() {
            let label = "Segment \(index) (line \(segment.line.number))"
            guard !segment.isGap else {
                throw HLSError(.unsupported, "\(label) of \(source) is marked EXT-X-GAP; a file with a hole is refused.")
            }
            guard segment.map == nil else {
                throw HLSError(.unsupported, "\(source) uses EXT-X-MAP (fragmented MP4); this version assembles MPEG-TS only.")
            }
            let url = try ResourceURL.resolve(segment.uri, against: baseURL, what: label)
            let range = segment.byteRange.map { ByteRange(offset: $0.resolvedOffset, length: $0.length) }
            let previous = index > 0 ? playlist.segments[index - 1].discontinuitySequence : segment.discontinuitySequence
            segments.append(Segment(index: index, url: url, range: range,
                                    encryption: try Self.encryption(of: segment, label: label, baseURL: baseURL),
                                    startsDiscontinuity: segment.discontinuitySequence != previous))
        }
        self.segments = segments
    }

    private static func encryption(of segment: MediaSegment, label: String, baseURL: URL) throws(HLSError) -> Encryption? {
        guard !segment.keys.isEmpty else { return nil }
        guard let key = segment.identityKey else {
            let formats = segment.keys.map(\.keyFormat).joined(separator: ", ")
            throw HLSError(.unsupported, "\(label) is encrypted only for KEYFORMAT \(formats) (DRM); only identity AES-128 keys are supported.")
        }
        guard key.method == .aes128 else {
            throw HLSError(.unsupported, "\(label) uses METHOD=\(key.method); only whole-segment AES-128 is supported.")
        }
        guard let uri = key.uri else {
            throw HLSError(.invalidPlaylist, "\(label): its EXT-X-KEY (line \(key.line.number)) has no URI.")
        }
        let keyURL = try ResourceURL.resolve(uri, against: baseURL, what: "Key of \(label.lowercased())")
        return Encryption(keyURL: keyURL, iv: key.iv ?? AES128IVForPlan.mediaSequence(segment.mediaSequence))
    }
}
