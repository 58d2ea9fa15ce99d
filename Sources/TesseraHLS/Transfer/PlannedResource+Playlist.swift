import TesseraHTTP
import TesseraMedia
import TesseraPlaylist

/// The planned resources of a media playlist's entries, as every plan makes them (download,
/// package, recording): identity, byte range, and the AES-128 key with its IV.
extension PlannedResource {
    /// The initialization section `map` of `stream`, first used by the segment of
    /// `mediaSequence`; `range` is the range fetched (nil: the whole file). Its key must give its
    /// IV (the plan's checks refuse one that does not).
    package static func initialization(_ map: MediaInitializationSection, stream: StreamIdentity, mediaSequence: UInt64,
                                       range: ByteRange?) -> PlannedResource {
        PlannedResource(identity: ResourceIdentity(stream: stream, kind: .initialization, mediaSequence: mediaSequence, byteRange: range),
                        encryption: encryption(map.keys, stream: stream, iv: nil), line: map.line.number, uri: map.uri)
    }

    /// `segment` of `stream`; `range` is the range fetched (nil: the whole file), and an AES-128
    /// key without IV takes the one of media sequence `ivSequence` (by default the segment's: a
    /// recording that renumbered a restarted source gives the source's).
    package static func segment(_ segment: MediaSegment, stream: StreamIdentity, range: ByteRange?, ivSequence: UInt64? = nil,
                                startsDiscontinuity: Bool) -> PlannedResource {
        PlannedResource(identity: ResourceIdentity(stream: stream, kind: .segment, mediaSequence: segment.mediaSequence, byteRange: range),
                        encryption: encryption(segment.keys, stream: stream, iv: AES128IV.mediaSequence(ivSequence ?? segment.mediaSequence)),
                        startsDiscontinuity: startsDiscontinuity, duration: segment.duration, line: segment.line.number, uri: segment.uri)
    }

    /// The identity AES-128 key among `keys`, or nil when clear (the plan's checks refused
    /// anything else before the transfer). `iv` is the IV when the key has none, made only then
    /// (not an array per clear segment).
    static func encryption(_ keys: [SegmentKey], stream: StreamIdentity, iv: @autoclosure () -> [UInt8]?) -> ResourceEncryption? {
        guard let key = keys.first(where: \.isIdentity), key.method == .aes128, let uri = key.uri, let resolved = key.iv ?? iv() else { return nil }
        return ResourceEncryption(keyURI: uri, stream: stream, iv: resolved)
    }
}
