/// One access unit of an Annex B video stream in a PES packet (H.264, H.265) as an MP4 sample:
/// its NAL units each after a 4-byte length (ISO/IEC 14496-15 §5.3.2, §8.3.2), the access unit
/// delimiter left out, the parameter sets gathered (and, for H.265, left out of the sample), and
/// whether it holds a picture and is a random access point. Shared by `AVCReader` and
/// `HEVCReader`.
struct AnnexBAccessUnit {
    /// What a reader does with one NAL unit.
    enum Role {
        /// Left out of the sample (an access unit delimiter).
        case dropped
        /// A parameter set of the kind at this index; in the sample when `keepsParameterSets`.
        case parameterSet(Int)
        /// A coded picture's slice.
        case picture(isRandomAccess: Bool)
        /// Anything else, kept (SEI, end of sequence …).
        case kept
    }

    /// The sample's bytes (when kept).
    private(set) var sample: [UInt8] = []
    /// The sample's size.
    private(set) var size = 0
    private let keepsBytes: Bool
    /// The parameter sets of each kind, in order.
    private(set) var parameterSets: [[[UInt8]]]
    private(set) var isRandomAccess = false
    let pts: UInt64
    let dts: UInt64?

    /// The access unit of `packet`, each NAL unit's role given by `role` (from its first byte).
    /// - Throws: `malformed-elementary-stream` for a packet without a PTS or without a picture.
    init(_ packet: PESPacket, codec: String, parameterSetKinds: Int, keepsParameterSets: Bool, keepsBytes: Bool = true,
         role: (UInt8) -> Role) throws(MediaError) {
        self.keepsBytes = keepsBytes
        guard let pts = packet.pts else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid)'s PES packet at byte \(packet.byteOffset) has no PTS.")
        }
        self.pts = pts
        dts = packet.dts
        parameterSets = Array(repeating: [], count: parameterSetKinds)
        let bytes = packet.data
        if keepsBytes { sample.reserveCapacity(bytes.count + 16) }
        var hasPicture = false
        for range in AnnexB.units(in: bytes) {
            switch role(bytes[range.lowerBound]) {
            case .dropped: continue
            case .parameterSet(let kind):
                parameterSets[kind].append(Array(bytes[range]))
                if !keepsParameterSets { continue }
            case .picture(let isRandomAccess):
                hasPicture = true
                self.isRandomAccess = self.isRandomAccess || isRandomAccess
            case .kept: break
            }
            size += 4 + range.count
            guard keepsBytes else { continue }
            let length = UInt32(range.count)
            sample += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            sample += bytes[range]
        }
        guard hasPicture else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid)'s PES packet at byte \(packet.byteOffset) holds no \(codec) picture.")
        }
    }

    /// Whether the unit brought parameter sets.
    var hasParameterSets: Bool { parameterSets.contains { !$0.isEmpty } }

    /// The access unit, timed by the packet's PTS and DTS.
    var accessUnit: AccessUnit {
        keepsBytes ? AccessUnit(decodeTime: dts ?? pts, presentationTime: pts, isSync: isRandomAccess, data: sample)
            : AccessUnit(decodeTime: dts ?? pts, presentationTime: pts, isSync: isRandomAccess, size: size)
    }
}
