/// What an AAC decoder needs before the first frame (ISO/IEC 14496-3 §1.6.2.1): the audio
/// object type, the sampling frequency and the channel configuration — what an ADTS header
/// repeats on every frame and an MP4 `esds` holds once as `AudioSpecificConfig`. Two streams
/// with equal configurations decode under one sample description.
public struct AACConfiguration: Sendable, Hashable, Codable {
    /// The audio object type (2 is AAC LC).
    public let objectType: UInt8
    /// `samplingFrequencyIndex` (ISO/IEC 14496-3 Table 1.18).
    public let samplingFrequencyIndex: UInt8
    /// `channelConfiguration` (0: given in the stream's program config element).
    public let channelConfiguration: UInt8

    /// The configuration an ADTS header announces.
    public init(_ header: ADTSHeader) {
        objectType = header.profile + 1
        samplingFrequencyIndex = header.samplingFrequencyIndex
        channelConfiguration = header.channelConfiguration
    }

    /// Samples per second.
    public var sampleRate: Int { ADTSHeader.samplingFrequencies[Int(samplingFrequencyIndex)] }

    /// Samples one frame decodes to (AAC: 1,024).
    public var samplesPerFrame: Int { 1024 }

    /// The two-byte `AudioSpecificConfig`: object type, frequency index, channel configuration,
    /// then the `GASpecificConfig` flags all zero.
    public var audioSpecificConfig: [UInt8] {
        [objectType << 3 | samplingFrequencyIndex >> 1, (samplingFrequencyIndex & 1) << 7 | channelConfiguration << 3]
    }
}
