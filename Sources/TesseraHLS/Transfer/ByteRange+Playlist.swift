import TesseraHTTP
import TesseraPlaylist

/// A playlist's byte ranges as the transfer requests them.
extension ByteRange {
    /// The bytes a playlist's EXT-X-BYTERANGE names (its offset resolved).
    package init(_ range: PlaylistByteRange) {
        self.init(offset: range.resolvedOffset, length: range.length)
    }
}
