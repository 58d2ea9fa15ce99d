/// The container a resource's first bytes announce — what `tessera validate` dispatches on and
/// what a decrypted resource must look like (bytes decrypted with a wrong key look like none).
public enum MediaFormat: String, Sendable, Equatable {
    /// MPEG-2 transport stream: a sync byte, and another 188 bytes on when there are that many.
    case mpegTS = "mpeg-ts"
    /// ISO-BMFF (fMP4): a first box `ftyp`, `moov` or one that starts a segment.
    case fragmentedMP4 = "fmp4"
    /// WebVTT: the signature, after an optional BOM.
    case webVTT = "webvtt"
    /// Packed audio: ADTS frames (a 12-bit sync), or an ID3 tag before them (RFC 8216bis §3.4).
    case packedAudio = "packed-audio"

    /// The format `head` (a resource's first bytes; 376 suffice) announces, or nil.
    public static func detect(_ head: [UInt8]) -> MediaFormat? {
        if head.count >= 8 {
            let type = MP4BoxType(rawValue: UInt32(head[4]) << 24 | UInt32(head[5]) << 16 | UInt32(head[6]) << 8 | UInt32(head[7]))
            if type == .ftyp || type == .moov || MP4BoxType.segmentStarts.contains(type) { return .fragmentedMP4 }
        }
        if head.starts(with: Array("WEBVTT".utf8)) || head.starts(with: [0xEF, 0xBB, 0xBF] + Array("WEBVTT".utf8)) { return .webVTT }
        if head.first == TSPacket.syncByte, head.count <= TSPacket.size || head[TSPacket.size] == TSPacket.syncByte { return .mpegTS }
        if head.starts(with: Array("ID3".utf8)) || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xF6 == 0xF0) { return .packedAudio }
        return nil
    }
}
