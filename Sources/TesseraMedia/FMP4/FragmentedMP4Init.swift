/// What a fragmented MP4's initialization section says a muxer needs (ISO/IEC 14496-12 §8.3,
/// §8.4, §8.5.2, §8.8.3): each track's ID, media timescale, handler, its first sample entry as
/// written (`avc1`, `hvc1`, `mp4a`, `ec-3`, … with its configuration boxes, copied into the
/// output as is), its picture size, and the `trex` defaults its fragments fall back on. Read with
/// the one box reader (`MP4BoxHeader`).
public struct FragmentedMP4Init: Sendable, Equatable {
    /// One track.
    public struct Track: Sendable, Equatable {
        public let id: UInt32
        public let timescale: UInt32
        /// `hdlr`'s handler type: `vide`, `soun`, `subt`, `text`, …
        public let handler: String
        /// The first `stsd` entry, whole (header included).
        public let sampleEntry: [UInt8]
        /// The visual sample entry's width and height (0 for other media).
        public let width: Int
        public let height: Int
        /// The media time its edit list starts presenting at (`elst`'s first edit that is not
        /// empty; 0 without one): an audio encoder's priming, a video's reordering delay.
        public let mediaTime: Int64
        /// `trex` defaults.
        public let defaultDuration: UInt32
        public let defaultSize: UInt32
        public let defaultFlags: UInt32
    }

    public let tracks: [Track]

    /// Reads the initialization section `bytes` (`ftyp`, `moov`, …).
    /// - Throws: `malformed-boxes` when the boxes do not parse, there is no `moov`, a track
    ///   lacks its `tkhd`, `mdhd`, `hdlr` or sample entry, or it is encrypted (`encv`, `enca`).
    public init(_ bytes: [UInt8]) throws(MediaError) {
        let top = try Self.children(bytes, 0..<bytes.count, sizeToEnd: true)
        guard let moov = top.first(where: { $0.type == .moov }) else {
            throw MediaError(.malformedBoxes, "The initialization section has no moov.")
        }
        var tracks: [Track] = []
        var defaults: [UInt32: (UInt32, UInt32, UInt32)] = [:]
        for child in try Self.children(bytes, Self.payload(moov)) {
            if child.type == .mvex {
                for trex in try Self.children(bytes, Self.payload(child)) where trex.type == .trex && trex.payloadSize >= 24 {
                    let at = Int(trex.payloadOffset)
                    defaults[BigEndian.uint32(bytes, at + 4)] = (BigEndian.uint32(bytes, at + 12), BigEndian.uint32(bytes, at + 16), BigEndian.uint32(bytes, at + 20))
                }
            }
        }
        for trak in try Self.children(bytes, Self.payload(moov)) where trak.type == .trak {
            tracks.append(try Self.track(bytes, trak, defaults: defaults))
        }
        guard !tracks.isEmpty else { throw MediaError(.malformedBoxes, "The initialization section's moov holds no track.") }
        self.tracks = tracks
    }

    private static func track(_ bytes: [UInt8], _ trak: MP4BoxHeader, defaults: [UInt32: (UInt32, UInt32, UInt32)]) throws(MediaError) -> Track {
        var id: UInt32?, timescale: UInt32?, handler: String?, entry: [UInt8]?
        var width = 0, height = 0
        var mediaTime: Int64 = 0
        func walk(_ range: Range<Int>) throws(MediaError) {
            for box in try children(bytes, range) {
                let at = Int(box.payloadOffset)
                switch box.type {
                case .tkhd where box.payloadSize >= 24: id = BigEndian.uint32(bytes, at + (bytes[at] == 1 ? 20 : 12))
                case .mdhd where box.payloadSize >= 24: timescale = BigEndian.uint32(bytes, at + (bytes[at] == 1 ? 20 : 12))
                case MP4BoxType("hdlr") where box.payloadSize >= 12: handler = String(decoding: bytes[(at + 8)..<(at + 12)], as: UTF8.self)
                case .mdia, .minf, .stbl, MP4BoxType("edts"): try walk(payload(box))
                case MP4BoxType("elst") where box.payloadSize >= 8:
                    let version = bytes[at], count = Int(BigEndian.uint32(bytes, at + 4))
                    let size = version == 1 ? 20 : 12
                    for index in 0..<min(count, (Int(box.payloadSize) - 8) / size) {
                        let entry = at + 8 + index * size
                        let time = version == 1 ? Int64(bitPattern: BigEndian.uint64(bytes, entry + 8)) : Int64(Int32(bitPattern: BigEndian.uint32(bytes, entry + 4)))
                        if time >= 0 {
                            mediaTime = time
                            break
                        }
                    }
                case MP4BoxType("stsd") where box.payloadSize >= 8:
                    guard let first = try children(bytes, (at + 8)..<Int(box.end)).first else { continue }
                    entry = Array(bytes[Int(first.offset)..<Int(first.end)])
                    let fields = Int(first.payloadOffset)
                    if handler == "vide", first.end >= UInt64(fields + 28) {
                        width = Int(BigEndian.uint16(bytes, fields + 24))
                        height = Int(BigEndian.uint16(bytes, fields + 26))
                    }
                default: continue
                }
            }
        }
        try walk(payload(trak))
        guard let id, let timescale, timescale > 0, let handler, let entry else {
            throw MediaError(.malformedBoxes, "A track of the initialization section lacks its tkhd, mdhd timescale, hdlr or sample entry.")
        }
        let format = String(decoding: entry[4..<8], as: UTF8.self)
        guard !["encv", "enca", "encs", "enct"].contains(format) else {
            throw MediaError(.malformedBoxes, "Track \(id) is encrypted (\(format)); its samples cannot be muxed.")
        }
        let (duration, size, flags) = defaults[id] ?? (0, 0, 0)
        return Track(id: id, timescale: timescale, handler: handler, sampleEntry: entry, width: width, height: height, mediaTime: mediaTime,
                     defaultDuration: duration, defaultSize: size, defaultFlags: flags)
    }

    /// The boxes filling `range` of `bytes`.
    /// - Throws: `malformed-boxes` at the first that does not parse.
    static func children(_ bytes: [UInt8], _ range: Range<Int>, sizeToEnd: Bool = false) throws(MediaError) -> [MP4BoxHeader] {
        let (boxes, defect) = MP4BoxHeader.boxes(in: bytes, range, sizeToEnd: sizeToEnd)
        if let (offset, defect) = defect { throw MediaError(.malformedBoxes, "A box at byte \(offset) does not parse (\(defect)).") }
        return boxes
    }

    /// A box's payload range.
    static func payload(_ box: MP4BoxHeader) -> Range<Int> { Int(box.payloadOffset)..<Int(box.end) }
}
