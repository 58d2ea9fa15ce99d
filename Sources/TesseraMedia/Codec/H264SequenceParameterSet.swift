/// The fields of an H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1) an MP4 writer needs:
/// profile, constraints and level (`avcC`, the `avc1` codec string), the chroma format and bit
/// depths (the `avcC` extension of the High profiles), and the picture size after cropping
/// (`tkhd`, the visual sample entry).
public struct H264SequenceParameterSet: Sendable, Equatable, Codable {
    /// `profile_idc`.
    public let profile: UInt8
    /// The `constraint_set` flags byte (`profile_compatibility` in `avcC`).
    public let constraints: UInt8
    /// `level_idc`.
    public let level: UInt8
    /// `chroma_format_idc` (1, 4:2:0, when the profile does not signal it).
    public let chromaFormat: UInt8
    /// `bit_depth_luma_minus8`.
    public let bitDepthLumaMinus8: UInt8
    /// `bit_depth_chroma_minus8`.
    public let bitDepthChromaMinus8: UInt8
    /// Width in luma samples, after the frame cropping.
    public let width: Int
    /// Height in luma samples, after the frame cropping.
    public let height: Int

    /// The profiles whose SPS carries the chroma format and bit depths (§7.3.2.1.1).
    static let highProfiles: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// Reads the SPS NAL unit `nal` (its one-byte NAL header first).
    /// - Throws: `malformed-elementary-stream` when it is not an SPS or ends early.
    public init(_ nal: some Collection<UInt8>) throws(MediaError) {
        guard let first = nal.first, first & 0x1F == 7 else {
            throw MediaError(.malformedElementaryStream, "An H.264 sequence parameter set was expected (NAL type 7).")
        }
        var reader = BitReader(BitReader.rbsp(nal.dropFirst()), what: "H.264 sequence parameter set")
        profile = UInt8(try reader.bits(8))
        constraints = UInt8(try reader.bits(8))
        level = UInt8(try reader.bits(8))
        _ = try reader.unsignedGolomb()   // seq_parameter_set_id
        var chroma: UInt32 = 1
        var separatePlanes = false
        var lumaDepth: UInt32 = 0, chromaDepth: UInt32 = 0
        if Self.highProfiles.contains(profile) {
            chroma = try reader.unsignedGolomb()
            guard chroma <= 3 else { throw MediaError(.malformedElementaryStream, "The H.264 SPS has chroma_format_idc \(chroma).") }
            if chroma == 3 { separatePlanes = try reader.flag() }
            lumaDepth = try reader.unsignedGolomb()
            chromaDepth = try reader.unsignedGolomb()
            guard lumaDepth <= 6, chromaDepth <= 6 else { throw MediaError(.malformedElementaryStream, "The H.264 SPS has a bit depth over 14.") }
            try reader.skip(1)   // qpprime_y_zero_transform_bypass_flag
            if try reader.flag() {   // seq_scaling_matrix_present_flag
                for list in 0..<(chroma == 3 ? 12 : 8) where try reader.flag() {
                    try Self.skipScalingList(&reader, size: list < 6 ? 16 : 64)
                }
            }
        }
        _ = try reader.unsignedGolomb()   // log2_max_frame_num_minus4
        switch try reader.unsignedGolomb() {   // pic_order_cnt_type
        case 0: _ = try reader.unsignedGolomb()   // log2_max_pic_order_cnt_lsb_minus4
        case 1:
            try reader.skip(1)   // delta_pic_order_always_zero_flag
            _ = try reader.signedGolomb()   // offset_for_non_ref_pic
            _ = try reader.signedGolomb()   // offset_for_top_to_bottom_field
            let cycle = try reader.unsignedGolomb()
            guard cycle <= 255 else { throw MediaError(.malformedElementaryStream, "The H.264 SPS has a picture order cycle of \(cycle).") }
            for _ in 0..<cycle { _ = try reader.signedGolomb() }
        case 2: break
        case let other: throw MediaError(.malformedElementaryStream, "The H.264 SPS has pic_order_cnt_type \(other).")
        }
        _ = try reader.unsignedGolomb()   // max_num_ref_frames
        try reader.skip(1)   // gaps_in_frame_num_value_allowed_flag
        let widthInMacroblocks = Int(try reader.unsignedGolomb()) + 1
        let heightInMapUnits = Int(try reader.unsignedGolomb()) + 1
        let frameMacroblocksOnly = try reader.flag()
        if !frameMacroblocksOnly { try reader.skip(1) }   // mb_adaptive_frame_field_flag
        try reader.skip(1)   // direct_8x8_inference_flag
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if try reader.flag() {
            crop = (Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()), Int(try reader.unsignedGolomb()))
        }
        // Crop units (§7.4.2.1.1): by the chroma subsampling, doubled vertically for fields.
        let fields = frameMacroblocksOnly ? 1 : 2
        let arrayType = separatePlanes ? 0 : chroma
        let unitX = arrayType == 1 || arrayType == 2 ? 2 : 1
        let unitY = (arrayType == 1 ? 2 : 1) * fields
        width = widthInMacroblocks * 16 - unitX * (crop.left + crop.right)
        height = heightInMapUnits * 16 * fields - unitY * (crop.top + crop.bottom)
        guard width > 0, height > 0 else { throw MediaError(.malformedElementaryStream, "The H.264 SPS crops its picture to nothing.") }
        chromaFormat = UInt8(chroma)
        bitDepthLumaMinus8 = UInt8(lumaDepth)
        bitDepthChromaMinus8 = UInt8(chromaDepth)
    }

    /// The codec string of RFC 6381 §3.3: `avc1.PPCCLL`.
    public var codecString: String {
        "avc1." + [profile, constraints, level].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// Skips a `scaling_list` of `size` entries (§7.3.2.1.1.1).
    private static func skipScalingList(_ reader: inout BitReader, size: Int) throws(MediaError) {
        var last: Int32 = 8, next: Int32 = 8
        for _ in 0..<size {
            if next != 0 { next = (last + (try reader.signedGolomb()) + 256) % 256 }
            last = next == 0 ? last : next
        }
    }
}
