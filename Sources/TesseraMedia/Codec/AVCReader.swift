/// Reads H.264 access units out of the Annex B stream a transport stream's PES packets carry
/// (ITU-T H.264 §7.4.1.2.3 for the order of NAL units; ISO/IEC 13818-1 §2.14 for H.264 in TS):
/// one access unit per PES packet, timed by its PTS and DTS, as HLS packagers write them. Each
/// sample keeps its NAL units but the access unit delimiter, each after a 4-byte length
/// (ISO/IEC 14496-15 §5.3.2); the parameter sets seen become the `configuration`, and a change
/// of them (another resolution or profile after a discontinuity) is reported by
/// `configurationChanged` for the muxer to carry.
public struct AVCReader: Sendable, Codable {
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
    /// `keepsBytes` false: the unit's size without its bytes.
    public mutating func consume(_ packet: PESPacket, keepsBytes: Bool = true) throws(MediaError) -> AccessUnit {
        configurationChanged = false
        let unit = try AnnexBAccessUnit(packet, codec: "H.264", parameterSetKinds: 2, keepsParameterSets: true, keepsBytes: keepsBytes) { first in
            switch first & 0x1F {
            case NALType.accessUnitDelimiter: .dropped
            case NALType.sequenceParameterSet: .parameterSet(0)
            case NALType.pictureParameterSet: .parameterSet(1)
            case NALType.idrSlice: .picture(isRandomAccess: true)
            case NALType.nonIDRSlice...4: .picture(isRandomAccess: false)
            default: .kept
            }
        }
        if unit.hasParameterSets {
            let (sequences, pictures) = (unit.parameterSets[0], unit.parameterSets[1])
            let next = try AVCDecoderConfiguration(sequenceParameterSets: sequences.isEmpty ? configuration?.sequenceParameterSets ?? [] : sequences,
                                                   pictureParameterSets: pictures.isEmpty ? configuration?.pictureParameterSets ?? [] : pictures)
            if let configuration, configuration != next { configurationChanged = true }
            configuration = next
        }
        guard configuration != nil else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid) has an H.264 picture before any parameter sets.")
        }
        return unit.accessUnit
    }
}
