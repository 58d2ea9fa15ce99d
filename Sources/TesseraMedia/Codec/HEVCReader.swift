/// Reads H.265 access units out of the Annex B stream a transport stream's PES packets carry
/// (ITU-T H.265 §7.4.2.4.4 for the order of NAL units; ISO/IEC 13818-1 §2.17 for HEVC in TS):
/// one access unit per PES packet, timed by its PTS and DTS. Each sample keeps its NAL units
/// but the access unit delimiter and the parameter sets — those go to the `configuration`
/// (`hvcC`, complete arrays, as `hvc1` requires) — each after a 4-byte length (ISO/IEC 14496-15
/// §8.3.2). Random access points (IRAP pictures: BLA, IDR, CRA) are sync samples. A change of
/// the parameter sets is reported by `configurationChanged` for the muxer to carry as a further
/// sample description.
public struct HEVCReader: Sendable, Codable {
    /// The parameter sets in force.
    public private(set) var configuration: HEVCDecoderConfiguration?
    /// Whether the last access unit brought parameter sets other than those before it.
    public private(set) var configurationChanged = false

    /// NAL unit types (H.265 Table 7-1).
    enum NALType {
        /// The last VCL type (0–31 are slices or reserved VCL types).
        static let lastVCL: UInt8 = 31
        /// IRAP pictures: BLA_W_LP … RSV_IRAP_VCL23.
        static let randomAccess: ClosedRange<UInt8> = 16...23
        static let videoParameterSet: UInt8 = 32
        static let sequenceParameterSet: UInt8 = 33
        static let pictureParameterSet: UInt8 = 34
        static let accessUnitDelimiter: UInt8 = 35
    }

    /// A reader at the start of a stream.
    public init() {}

    /// The access unit in `packet`.
    /// - Throws: `malformed-elementary-stream` for a packet without a PTS, without a picture,
    ///   with a picture before any parameter sets, or with parameter sets that do not parse.
    /// `keepsBytes` false: the unit's size without its bytes.
    public mutating func consume(_ packet: PESPacket, keepsBytes: Bool = true) throws(MediaError) -> AccessUnit {
        configurationChanged = false
        let unit = try AnnexBAccessUnit(packet, codec: "H.265", parameterSetKinds: 3, keepsParameterSets: false, keepsBytes: keepsBytes) { first in
            switch first >> 1 & 0x3F {
            case NALType.accessUnitDelimiter: .dropped
            case NALType.videoParameterSet: .parameterSet(0)
            case NALType.sequenceParameterSet: .parameterSet(1)
            case NALType.pictureParameterSet: .parameterSet(2)
            case NALType.randomAccess: .picture(isRandomAccess: true)
            case 0...NALType.lastVCL: .picture(isRandomAccess: false)
            default: .kept
            }
        }
        if unit.hasParameterSets {
            func or(_ sets: [[UInt8]], _ current: [[UInt8]]?) -> [[UInt8]] { sets.isEmpty ? current ?? [] : sets }
            let next = try HEVCDecoderConfiguration(videoParameterSets: or(unit.parameterSets[0], configuration?.videoParameterSets),
                                                    sequenceParameterSets: or(unit.parameterSets[1], configuration?.sequenceParameterSets),
                                                    pictureParameterSets: or(unit.parameterSets[2], configuration?.pictureParameterSets))
            if let configuration, configuration != next { configurationChanged = true }
            configuration = next
        }
        guard configuration != nil else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid) has an H.265 picture before any parameter sets.")
        }
        return unit.accessUnit
    }
}
