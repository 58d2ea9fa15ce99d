/// The sync information and bit stream information of an AC-3 frame (ATSC A/52 §5.3.1–§5.3.2,
/// §5.4.1): its length from `fscod` and `frmsizecod`, 1,536 samples, and the fields an MP4
/// `dac3` box carries (ETSI TS 102 366 Annex F.4).
public struct AC3Header: AudioFrameHeader, Equatable, Codable {
    public static let name = "AC-3"
    /// 640 kbit/s at 32 kHz: 1,920 words.
    public static let maximumFrameLength = 3840

    /// The frame's decoder configuration: what `dac3` holds.
    public struct Configuration: Sendable, Hashable, Codable {
        /// `fscod`: 0 48 kHz, 1 44.1 kHz, 2 32 kHz.
        public let sampleRateCode: UInt8
        /// `bsid`.
        public let bitStreamIdentification: UInt8
        /// `bsmod`.
        public let bitStreamMode: UInt8
        /// `acmod`: the channel layout.
        public let audioCodingMode: UInt8
        /// `lfeon`.
        public let hasLowFrequencyEffects: Bool
        /// `frmsizecod` >> 1: the nominal bit rate's index.
        public let bitRateCode: UInt8

        /// The 3-byte `AC3SpecificBox` payload.
        public var specificBox: [UInt8] {
            let bits = UInt32(sampleRateCode) << 22 | UInt32(bitStreamIdentification) << 17 | UInt32(bitStreamMode) << 14
                | UInt32(audioCodingMode) << 11 | (hasLowFrequencyEffects ? 1 << 10 : 0) | UInt32(bitRateCode) << 5
            return [UInt8(bits >> 16), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
        }

        /// Samples per second.
        public var sampleRate: Int { AC3Header.sampleRates[Int(sampleRateCode)] }

        /// Channels, the LFE included.
        public var channelCount: Int { AC3Header.channels[Int(audioCodingMode)] + (hasLowFrequencyEffects ? 1 : 0) }
    }

    static let sampleRates = [48000, 44100, 32000]
    /// The full-bandwidth channels of each `acmod`.
    static let channels = [2, 1, 2, 3, 3, 4, 4, 5]
    /// The nominal bit rates (kbit/s) of `frmsizecod` >> 1.
    static let bitRates = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]

    public let frameLength: Int
    public let configuration: Configuration
    public var sampleCount: Int { 1536 }
    public var sampleRate: Int { configuration.sampleRate }

    /// The header at `index`; nil without the sync word, with a reserved rate or size code, or a
    /// `bsid` above 10 (E-AC-3 is another format).
    public init?(_ bytes: [UInt8], at index: Int) {
        guard index + 8 <= bytes.count, bytes[index] == 0x0B, bytes[index + 1] == 0x77 else { return nil }
        let rateCode = bytes[index + 4] >> 6, sizeCode = bytes[index + 4] & 0x3F
        let bsid = bytes[index + 5] >> 3
        guard rateCode < 3, sizeCode < 38, bsid <= 10 else { return nil }
        let rate = Self.sampleRates[Int(rateCode)]
        let words = Self.bitRates[Int(sizeCode >> 1)] * 96_000 / rate + (rate == 44100 ? Int(sizeCode & 1) : 0)
        frameLength = words * 2
        let acmod = bytes[index + 6] >> 5
        // After acmod: cmixlev (2 bits) for 3 front channels, surmixlev (2) with surrounds, dsurmod (2) in 2/0.
        var skip = 0
        if acmod & 1 == 1, acmod != 1 { skip += 2 }
        if acmod & 4 == 4 { skip += 2 }
        if acmod == 2 { skip += 2 }
        let lfeBit = 3 + skip   // bits after the first three of byte 6
        let lfe = (UInt16(bytes[index + 6]) << 8 | UInt16(bytes[index + 7])) >> (15 - lfeBit) & 1 == 1
        configuration = Configuration(sampleRateCode: rateCode, bitStreamIdentification: bsid, bitStreamMode: bytes[index + 5] & 0x07,
                                      audioCodingMode: acmod, hasLowFrequencyEffects: lfe, bitRateCode: sizeCode >> 1)
    }
}
