/// The header of an MPEG-1, MPEG-2 or MPEG-2.5 audio frame, layers I–III (ISO/IEC 11172-3
/// §2.4.1.3, ISO/IEC 13818-3): MP3 and MP2 in MPEG-TS. Its length from the bit rate, rate and
/// padding; its samples (384, 1,152, or 576 for MPEG-2 layer III). Free-format frames (bit
/// rate index 0) have no length of their own and are not read.
public struct MPEGAudioHeader: AudioFrameHeader, Equatable, Codable {
    public static let name = "MPEG audio"
    /// Layer II at 384 kbit/s and 8 kHz is the longest: 6,912 bytes.
    public static let maximumFrameLength = 8192

    /// What the sample entry carries: the version (its object type), layer, rate and channels.
    public struct Configuration: Sendable, Hashable, Codable {
        /// 1 for MPEG-1, 2 for MPEG-2 and MPEG-2.5.
        public let version: UInt8
        /// 1, 2 or 3.
        public let layer: UInt8
        /// Samples per second.
        public let sampleRate: Int
        /// 1 (mono) or 2.
        public let channelCount: Int

        /// The `esds` object type: 0x6B for ISO/IEC 11172-3, 0x69 for ISO/IEC 13818-3.
        public var objectType: UInt8 { version == 1 ? 0x6B : 0x69 }
    }

    private static let rates = [[44100, 48000, 32000], [22050, 24000, 16000], [11025, 12000, 8000]]
    private static let bitRates: [[Int]] = [
        [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],   // MPEG-1 layer I
        [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],      // MPEG-1 layer II
        [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],       // MPEG-1 layer III
        [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],      // MPEG-2 layer I
        [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],           // MPEG-2 layers II, III
    ]

    public let frameLength: Int
    public let sampleCount: Int
    public let configuration: Configuration
    public var sampleRate: Int { configuration.sampleRate }

    /// The header at `index`; nil without the 11-bit sync, with a reserved version, layer, rate
    /// or bit rate, or in free format.
    public init?(_ bytes: [UInt8], at index: Int) {
        guard index + 4 <= bytes.count, bytes[index] == 0xFF, bytes[index + 1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = bytes[index + 1] >> 3 & 0x03, layerBits = bytes[index + 1] >> 1 & 0x03
        let bitRateIndex = Int(bytes[index + 2] >> 4), rateIndex = Int(bytes[index + 2] >> 2 & 0x03)
        guard versionBits != 1, layerBits != 0, (1...14).contains(bitRateIndex), rateIndex < 3 else { return nil }
        let layer = 4 - layerBits   // 3 → I, 2 → II, 1 → III
        let mpeg1 = versionBits == 3
        let rate = Self.rates[mpeg1 ? 0 : versionBits == 2 ? 1 : 2][rateIndex]
        let table = mpeg1 ? Int(layer) - 1 : (layer == 1 ? 3 : 4)
        let bitRate = Self.bitRates[table][bitRateIndex - 1] * 1000
        let padding = Int(bytes[index + 2] >> 1 & 1)
        switch layer {
        case 1:
            sampleCount = 384
            frameLength = (12 * bitRate / rate + padding) * 4
        case 2:
            sampleCount = 1152
            frameLength = 144 * bitRate / rate + padding
        default:
            sampleCount = mpeg1 ? 1152 : 576
            frameLength = (mpeg1 ? 144 : 72) * bitRate / rate + padding
        }
        guard frameLength > 4 else { return nil }
        configuration = Configuration(version: mpeg1 ? 1 : 2, layer: layer, sampleRate: rate, channelCount: bytes[index + 3] >> 6 == 3 ? 1 : 2)
    }
}
