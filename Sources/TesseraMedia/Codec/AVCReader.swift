/// Reads H.264 access units out of the Annex B stream a transport stream's PES packets carry
/// (ITU-T H.264 §7.4.1.2.3 for the order of NAL units; ISO/IEC 13818-1 §2.14 for H.264 in TS):
/// one access unit per PES packet, timed by its PTS and DTS, as HLS packagers write them. Each
/// sample keeps its NAL units but the access unit delimiter, each after a 4-byte length
/// (ISO/IEC 14496-15 §5.3.2); the parameter sets seen become the `configuration`, and a change
/// of them (another resolution or profile after a discontinuity) is reported by
/// `configurationChanged` for the muxer to carry.
public struct AVCReader: Sendable {
    /// The parameter sets in force.
    public private(set) var configuration: AVCDecoderConfiguration?
    /// Whether the last access unit brought parameter sets other than those before it.
    public private(set) var configurationChanged = false

    /// NAL unit types (H.264 Table 7-1).
    enum NALType {
        static let nonIDRSlice: UInt8 = 1
        static let idrSlice: UInt8 = 5
        static let sequenceParameterSet: UInt8 = 7
        static let pictureParameterSet: UInt8 = 8
        static let accessUnitDelimiter: UInt8 = 9
    }

    /// A reader at the start of a stream.
    public init() {}

    /// The access unit in `packet`.
    /// - Throws: `malformed-elementary-stream` for a packet without a PTS, without a picture,
    ///   with a picture before any parameter sets, or with parameter sets that do not parse.
    public mutating func consume(_ packet: PESPacket) throws(MediaError) -> AccessUnit {
        configurationChanged = false
        guard let pts = packet.pts else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid)'s PES packet at byte \(packet.byteOffset) has no PTS.")
        }
        let bytes = packet.data
        var sample: [UInt8] = []
        sample.reserveCapacity(bytes.count + 16)
        var sequences: [[UInt8]] = [], pictures: [[UInt8]] = []
        var isIDR = false, hasPicture = false
        for range in AnnexB.units(in: bytes) {
            let type = bytes[range.lowerBound] & 0x1F
            switch type {
            case NALType.accessUnitDelimiter: continue
            case NALType.sequenceParameterSet: sequences.append(Array(bytes[range]))
            case NALType.pictureParameterSet: pictures.append(Array(bytes[range]))
            case NALType.idrSlice: isIDR = true; hasPicture = true
            case NALType.nonIDRSlice...4: hasPicture = true
            default: break
            }
            let length = UInt32(range.count)
            sample += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            sample += bytes[range]
        }
        guard hasPicture else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid)'s PES packet at byte \(packet.byteOffset) holds no H.264 picture.")
        }
        if !sequences.isEmpty || !pictures.isEmpty {
            let next = try AVCDecoderConfiguration(sequenceParameterSets: sequences.isEmpty ? configuration?.sequenceParameterSets ?? [] : sequences,
                                                   pictureParameterSets: pictures.isEmpty ? configuration?.pictureParameterSets ?? [] : pictures)
            if let configuration, configuration != next { configurationChanged = true }
            configuration = next
        }
        guard configuration != nil else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid) has an H.264 picture before any parameter sets.")
        }
        return AccessUnit(decodeTime: packet.dts ?? pts, presentationTime: pts, isSync: isIDR, data: sample)
    }
}
