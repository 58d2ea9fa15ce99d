#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia

/// What a streamed movie's checkpoint keeps of one resource (`ResourceFileRecord.mux`, JSON), so
/// that a resume rebuilds the streamer exactly: an initialization section's bytes, or a segment's
/// units as the reader gave them (their bytes are in the body) and its source's reader after it.
struct StreamedPayload: Codable {
    /// One access unit without its bytes; `media` only where it differs from the unit before it of
    /// its kind in its source.
    struct Unit: Codable {
        let kind: ElementaryStreamReader.Kind
        let decodeTime: UInt64
        let presentationTime: UInt64
        let isSync: Bool
        let size: Int
        let duration: Int64?
        let hidden: Int64
        let offset: Int?
        let media: MP4Track.Media?
    }

    var map: Data?
    var units: [Unit]?
    var reader: ElementaryStreamReader?

    /// The payload as the record keeps it.
    func encoded() throws(HLSError) -> String {
        do { return String(decoding: try JSONEncoder().encode(self), as: UTF8.self) } catch {
            throw HLSError(.destinationUnwritable, "A streamed movie's checkpoint payload could not be written: \(error).")
        }
    }

    /// The payload `text` a record kept.
    /// - Throws: `destination-unwritable` when it does not read (a checkpoint not of this build).
    static func decoded(_ text: String) throws(HLSError) -> StreamedPayload {
        do { return try JSONDecoder().decode(StreamedPayload.self, from: Data(text.utf8)) } catch {
            throw HLSError(.destinationUnwritable, "A streamed movie's checkpoint payload does not read: \(error).")
        }
    }
}
