#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia

/// What a streamed movie's checkpoint keeps of one resource (`ResourceFileRecord.mux`, JSON), so
/// that a resume rebuilds the streamer exactly: an initialization section's bytes, or a segment's
/// units as the reader gave them — their bytes are in the body; each unit 29–37 bytes of binary
/// (`units`, base64 in the JSON), the sample descriptions that start with it in `media` — and its
/// source's reader after it.
struct StreamedPayload: Codable {
    var map: Data?
    var units: Data?
    var media: [MP4Track.Media]?
    var reader: ElementaryStreamReader?

    private static let video: UInt8 = 1, sync: UInt8 = 2, timed: UInt8 = 4, described: UInt8 = 8

    /// Keeps `units`, each unit's media written only where `changes` says it starts.
    mutating func keep(_ units: [ElementaryStreamReader.Unit], changes: [Bool]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(units.count * 37)
        var media: [MP4Track.Media] = []
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        for (unit, changed) in zip(units, changes) {
            var flags: UInt8 = unit.kind == .video ? Self.video : 0
            if unit.unit.isSync { flags |= Self.sync }
            if unit.duration != nil { flags |= Self.timed }
            if changed { flags |= Self.described }
            bytes.append(flags)
            put(UInt32(unit.unit.size))
            put(unit.unit.decodeTime)
            put(unit.unit.presentationTime)
            put(unit.hidden)
            if let duration = unit.duration { put(duration) }
            if changed { media.append(unit.media) }
        }
        self.units = Data(bytes)
        self.media = media.isEmpty ? nil : media
    }

    /// The units kept, each with its media: the one `media` starts, else `last` of its kind
    /// (updated as descriptions start).
    /// - Throws: `destination-unwritable` when the bytes do not read as units.
    func keptUnits(last: inout [ElementaryStreamReader.Kind: MP4Track.Media]) throws(HLSError) -> [ElementaryStreamReader.Unit] {
        guard let units else { return [] }
        let bytes = [UInt8](units)
        var at = 0
        var described = 0
        var out: [ElementaryStreamReader.Unit] = []
        func take<T: FixedWidthInteger>(_: T.Type) throws(HLSError) -> T {
            guard at + MemoryLayout<T>.size <= bytes.count else { throw HLSError(.destinationUnwritable, "A streamed movie's checkpoint payload is cut short.") }
            var value: T = 0
            for index in 0..<MemoryLayout<T>.size { value |= T(bytes[at + index]) << (8 * index) }
            at += MemoryLayout<T>.size
            return value
        }
        while at < bytes.count {
            let flags = try take(UInt8.self)
            let kind: ElementaryStreamReader.Kind = flags & Self.video != 0 ? .video : .audio
            let size = Int(try take(UInt32.self))
            let (decodeTime, presentationTime, hidden) = (try take(UInt64.self), try take(UInt64.self), try take(Int64.self))
            let duration = flags & Self.timed != 0 ? try take(Int64.self) : nil
            if flags & Self.described != 0 {
                guard let media, described < media.count else { throw HLSError(.destinationUnwritable, "A streamed movie's checkpoint payload lacks a description.") }
                last[kind] = media[described]
                described += 1
            }
            guard let current = last[kind] else { throw HLSError(.destinationUnwritable, "A streamed movie's checkpoint names a unit before its media.") }
            out.append(ElementaryStreamReader.Unit(kind: kind, unit: AccessUnit(decodeTime: decodeTime, presentationTime: presentationTime,
                                                                               isSync: flags & Self.sync != 0, size: size),
                                                   duration: duration, media: current, hidden: hidden))
        }
        return out
    }

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
