/// The fields of an H.265 sequence parameter set (ITU-T H.265 §7.3.2.2.1, the profile, tier and
/// level of §7.3.3) an MP4 writer needs: the general profile, tier, compatibility and constraint
/// flags and level (`hvcC`, the `hvc1` codec string), the sub-layers, the chroma format and bit
/// depths, and the picture size after the conformance window (`tkhd`, the visual sample entry).
public struct HEVCSequenceParameterSet: Sendable, Equatable, Codable {
    /// `general_profile_space` (2 bits), `general_tier_flag` and `general_profile_idc` (5 bits)
    /// as the first byte of `hvcC` packs them.
    public let profileByte: UInt8
    /// `general_profile_compatibility_flag[32]`.
    public let compatibility: UInt32
    /// The 48 bits of general constraint indicator flags.
    public let constraints: [UInt8]
    /// `general_level_idc`.
    public let level: UInt8
    /// `sps_max_sub_layers_minus1`.
    public let maxSubLayersMinus1: UInt8
    /// `sps_temporal_id_nesting_flag`.
    public let temporalIdNesting: Bool
    /// `chroma_format_idc`.
    public let chromaFormat: UInt8
    /// `bit_depth_luma_minus8`.
    public let bitDepthLumaMinus8: UInt8
    /// `bit_depth_chroma_minus8`.
    public let bitDepthChromaMinus8: UInt8
    /// Width in luma samples, inside the conformance window.
    public let width: Int
    /// Height in luma samples, inside the conformance window.
    public let height: Int

    /// Reads the SPS NAL unit `nal` (its two-byte NAL header first).
    /// - Throws: `malformed-elementary-stream` when it is not an SPS or ends early.
    public init(_ nal: some Collection<UInt8>) throws(MediaError) {
        guard let first = nal.first, first >> 1 & 0x3F == HEVCReader.NALType.sequenceParameterSet, nal.count > 2 else {
            throw MediaError(.malformedElementaryStream, "An H.265 sequence parameter set was expected (NAL type 33).")
        }
        var reader = BitReader(BitReader.rbsp(nal.dropFirst(2)), what: "H.265 sequence parameter set")
        try reader.skip(4)   // sps_video_parameter_set_id
        let subLayers = try reader.bits(3)
        maxSubLayersMinus1 = UInt8(subLayers)
        temporalIdNesting = try reader.flag()
        profileByte = UInt8(try reader.bits(8))
        compatibility = try reader.bits(32)
        let high = try reader.bits(16), low = try reader.bits(32)
        constraints = [UInt8(high >> 8), UInt8(high & 0xFF), UInt8(low >> 24), UInt8(low >> 16 & 0xFF), UInt8(low >> 8 & 0xFF), UInt8(low & 0xFF)]
        level = UInt8(try reader.bits(8))
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            profilePresent.append(try reader.flag())
            levelPresent.append(try reader.flag())
        }
        if subLayers > 0 { try reader.skip(2 * (8 - Int(subLayers))) }   // reserved_zero_2bits
        for layer in 0..<Int(subLayers) {
            if profilePresent[layer] { try reader.skip(88) }
            if levelPresent[layer] { try reader.skip(8) }
        }
        _ = try reader.unsignedGolomb()   // sps_seq_parameter_set_id
        let chroma = try reader.unsignedGolomb()
        guard chroma <= 3 else { throw MediaError(.malformedElementaryStream, "The H.265 SPS has chroma_format_idc \(chroma).") }
        var separatePlanes = false
        if chroma == 3 { separatePlanes = try reader.flag() }
        let lumaWidth = try reader.unsignedGolomb(), lumaHeight = try reader.unsignedGolomb()
        var crop: (left: UInt32, right: UInt32, top: UInt32, bottom: UInt32) = (0, 0, 0, 0)
        if try reader.flag() {   // conformance_window_flag
            crop = (try reader.unsignedGolomb(), try reader.unsignedGolomb(), try reader.unsignedGolomb(), try reader.unsignedGolomb())
        }
        let lumaDepth = try reader.unsignedGolomb(), chromaDepth = try reader.unsignedGolomb()
        guard lumaDepth <= 8, chromaDepth <= 8 else { throw MediaError(.malformedElementaryStream, "The H.265 SPS has a bit depth over 16.") }
        let arrayType = separatePlanes ? 0 : chroma
        let unitWidth: UInt64 = arrayType == 1 || arrayType == 2 ? 2 : 1, unitHeight: UInt64 = arrayType == 1 ? 2 : 1
        let croppedWidth = Int64(lumaWidth) - Int64(unitWidth * (UInt64(crop.left) + UInt64(crop.right)))
        let croppedHeight = Int64(lumaHeight) - Int64(unitHeight * (UInt64(crop.top) + UInt64(crop.bottom)))
        guard croppedWidth > 0, croppedHeight > 0, croppedWidth <= 16384, croppedHeight <= 16384 else {
            throw MediaError(.malformedElementaryStream, "The H.265 SPS gives a picture of \(croppedWidth)x\(croppedHeight).")
        }
        chromaFormat = UInt8(chroma)
        bitDepthLumaMinus8 = UInt8(lumaDepth)
        bitDepthChromaMinus8 = UInt8(chromaDepth)
        width = Int(croppedWidth)
        height = Int(croppedHeight)
    }
}
