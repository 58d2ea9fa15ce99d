/// The fixed and variable header of one ADTS frame (ISO/IEC 13818-7 §6.2, ISO/IEC 14496-3
/// §1.A.2.2): AAC in MPEG-TS. Its fields give the decoder configuration an MP4 `esds` carries
/// (`AudioSpecificConfig`) and the frame's length.
public struct ADTSHeader: AudioFrameHeader, Equatable, Codable {
    public static let name = "ADTS"
    /// 13 bits of `aac_frame_length`.
    public static let maximumFrameLength = 8191

    /// Bytes of a header without CRC (7) or with it (9).
    public let headerLength: Int
    /// `profile_ObjectType`: the audio object type minus one (1 is AAC LC).
    public let profile: UInt8
    /// `sampling_frequency_index`.
    public let samplingFrequencyIndex: UInt8
    /// `channel_configuration` (0: given in the stream's program config element).
    public let channelConfiguration: UInt8
    /// `aac_frame_length`: the whole frame, header included.
    public let frameLength: Int
    /// `number_of_raw_data_blocks_in_frame` + 1: AAC frames of 1024 samples each.
    public let rawDataBlocks: Int

    /// The sampling frequencies `sampling_frequency_index` names (ISO/IEC 14496-3 Table 1.18).
    public static let samplingFrequencies = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// The header at `index` of `bytes`; nil when there is no sync word, the layer is not 0, the
    /// frequency index is reserved, or the length cannot hold the header.
    public init?(_ bytes: [UInt8], at index: Int) {
        guard index + 7 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xF6 == 0xF0 else { return nil }
        headerLength = bytes[index + 1] & 1 == 1 ? 7 : 9
        profile = bytes[index + 2] >> 6
        samplingFrequencyIndex = bytes[index + 2] >> 2 & 0x0F
        channelConfiguration = (bytes[index + 2] & 1) << 2 | bytes[index + 3] >> 6
        frameLength = Int(bytes[index + 3] & 0x03) << 11 | Int(bytes[index + 4]) << 3 | Int(bytes[index + 5]) >> 5
        rawDataBlocks = Int(bytes[index + 6] & 0x03) + 1
        guard Int(samplingFrequencyIndex) < Self.samplingFrequencies.count, frameLength >= headerLength else { return nil }
    }

    /// Samples per second.
    public var sampleRate: Int { Self.samplingFrequencies[Int(samplingFrequencyIndex)] }

    /// Samples the frame decodes to.
    public var sampleCount: Int { rawDataBlocks * 1024 }

    /// The decoder configuration it announces.
    public var configuration: AACConfiguration { AACConfiguration(self) }

    /// The MP4 sample is the raw data after the header.
    public var payloadOffset: Int { headerLength }
}
