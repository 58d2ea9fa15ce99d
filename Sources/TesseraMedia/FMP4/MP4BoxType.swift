/// A box type: four characters stored as a big-endian 32-bit value (ISO/IEC 14496-12 §4.2).
public struct MP4BoxType: Hashable, Sendable, CustomStringConvertible {
    /// The four bytes, most significant first.
    public let rawValue: UInt32

    /// Wraps the 32-bit value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The type spelled by four ASCII characters.
    public init(_ code: StaticString) {
        precondition(code.utf8CodeUnitCount == 4, "a box type is four characters")
        let bytes = UnsafeBufferPointer(start: code.utf8Start, count: 4)
        rawValue = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
    }

    /// The four characters, with `?` for bytes that are not printable ASCII.
    public var description: String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: rawValue >> $0) }
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }

    /// `ftyp`: file type and compatibility.
    public static let ftyp = MP4BoxType("ftyp")
    /// `styp`: segment type.
    public static let styp = MP4BoxType("styp")
    /// `sidx`: segment index.
    public static let sidx = MP4BoxType("sidx")
    /// `moov`: the movie (an initialization section's metadata).
    public static let moov = MP4BoxType("moov")
    /// `trak`: one track.
    public static let trak = MP4BoxType("trak")
    /// `tkhd`: track header.
    public static let tkhd = MP4BoxType("tkhd")
    /// `mdia`: track media.
    public static let mdia = MP4BoxType("mdia")
    /// `mdhd`: media header (the timescale).
    public static let mdhd = MP4BoxType("mdhd")
    /// `minf`: media information.
    public static let minf = MP4BoxType("minf")
    /// `stbl`: sample table.
    public static let stbl = MP4BoxType("stbl")
    /// `stts`: decoding time to sample.
    public static let stts = MP4BoxType("stts")
    /// `stsc`: sample to chunk.
    public static let stsc = MP4BoxType("stsc")
    /// `stsz`: sample sizes.
    public static let stsz = MP4BoxType("stsz")
    /// `stco`: 32-bit chunk offsets.
    public static let stco = MP4BoxType("stco")
    /// `co64`: 64-bit chunk offsets.
    public static let co64 = MP4BoxType("co64")
    /// `mvex`: movie extends (fragments follow).
    public static let mvex = MP4BoxType("mvex")
    /// `trex`: a track's fragment defaults.
    public static let trex = MP4BoxType("trex")
    /// `moof`: a movie fragment.
    public static let moof = MP4BoxType("moof")
    /// `mfhd`: movie fragment header (the sequence number).
    public static let mfhd = MP4BoxType("mfhd")
    /// `traf`: a track fragment.
    public static let traf = MP4BoxType("traf")
    /// `tfhd`: track fragment header.
    public static let tfhd = MP4BoxType("tfhd")
    /// `tfdt`: track fragment decode time.
    public static let tfdt = MP4BoxType("tfdt")
    /// `trun`: track fragment run.
    public static let trun = MP4BoxType("trun")
    /// `mdat`: media data.
    public static let mdat = MP4BoxType("mdat")
    /// `emsg`: event message.
    public static let emsg = MP4BoxType("emsg")
    /// `prft`: producer reference time.
    public static let prft = MP4BoxType("prft")
    /// `uuid`: a user type, named by the 16-byte extended type after the header.
    public static let uuid = MP4BoxType("uuid")

    /// Boxes a media segment may start with.
    public static let segmentStarts: Set<MP4BoxType> = [.styp, .sidx, .moof, .emsg, .prft]
}
