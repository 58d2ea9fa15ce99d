/// The sync information and the start of the bit stream information of an E-AC-3 frame (ATSC
/// A/52 Annex E §E.1.2): its length from `frmsiz`, its blocks of 256 samples, and the fields an
/// MP4 `dec3` box carries (ETSI TS 102 366 Annex F.6). One independent substream of six-block
/// frames is carried (what HLS encoders make); dependent substreams and shorter frames, which an
/// MP4 sample would have to gather, are refused.
public struct EAC3Header: AudioFrameHeader, Equatable, Codable {
    public static let name = "E-AC-3"
    /// 11 bits of `frmsiz`, in words.
    public static let maximumFrameLength = 4096

    /// The stream's decoder configuration: what `dec3` holds for its one substream.
    public struct Configuration: Sendable, Hashable, Codable {
        /// `fscod` (3: a reduced rate, `fscod2` in `reducedRateCode`).
        public let sampleRateCode: UInt8
        /// `fscod2` when `sampleRateCode` is 3.
        public let reducedRateCode: UInt8
        /// `bsid` (16).
        public let bitStreamIdentification: UInt8
        /// `acmod`.
        public let audioCodingMode: UInt8
        /// `lfeon`.
        public let hasLowFrequencyEffects: Bool
        /// The data rate in kbit/s (from the first frame's size and rate; not compared: a
        /// variable-rate stream keeps one description).
        public let dataRate: Int

        public static func == (a: Configuration, b: Configuration) -> Bool {
            (a.sampleRateCode, a.reducedRateCode, a.bitStreamIdentification, a.audioCodingMode, a.hasLowFrequencyEffects)
                == (b.sampleRateCode, b.reducedRateCode, b.bitStreamIdentification, b.audioCodingMode, b.hasLowFrequencyEffects)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(sampleRateCode)
            hasher.combine(reducedRateCode)
            hasher.combine(bitStreamIdentification)
            hasher.combine(audioCodingMode)
            hasher.combine(hasLowFrequencyEffects)
        }

        /// Samples per second.
        public var sampleRate: Int { sampleRateCode < 3 ? AC3Header.sampleRates[Int(sampleRateCode)] : AC3Header.sampleRates[Int(reducedRateCode)] / 2 }

        /// Channels, the LFE included.
        public var channelCount: Int { AC3Header.channels[Int(audioCodingMode)] + (hasLowFrequencyEffects ? 1 : 0) }

        /// The `EC3SpecificBox` payload: the data rate, one independent substream without
        /// dependent ones.
        public var specificBox: [UInt8] {
            let head = UInt16(min(dataRate, 0x1FFF)) << 3   // data_rate (13), num_ind_sub (3) = 0: one substream
            // fscod(2) bsid(5) reserved(1) asvc(1) bsmod(3) acmod(3) lfeon(1) reserved(3) num_dep_sub(4) reserved(1)
            let fscod = UInt32(sampleRateCode == 3 ? 3 : sampleRateCode)
            let bits = fscod << 22 | UInt32(bitStreamIdentification) << 17 | UInt32(audioCodingMode) << 9 | (hasLowFrequencyEffects ? 1 << 8 : 0)
            return [UInt8(head >> 8), UInt8(head & 0xFF), UInt8(bits >> 16), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
        }
    }

    public let frameLength: Int
    /// Audio blocks of 256 samples: 1, 2, 3 or 6.
    public let blocks: Int
    /// `strmtyp`: 0 an independent substream, 1 a dependent one, 2 a converted AC-3 stream.
    public let streamType: UInt8
    /// `substreamid`.
    public let substream: UInt8
    public let configuration: Configuration
    public var sampleCount: Int { blocks * 256 }
    public var sampleRate: Int { configuration.sampleRate }

    public var unsupported: String? {
        if streamType == 1 || substream != 0 { return "an E-AC-3 stream of several substreams is not muxed yet (substream \(substream), type \(streamType))" }
        if blocks != 6 { return "E-AC-3 frames of \(blocks) blocks (not six) are not muxed yet" }
        return nil
    }

    /// The header at `index`; nil without the sync word, with a `bsid` outside 11–16, or a
    /// reserved rate.
    public init?(_ bytes: [UInt8], at index: Int) {
        guard index + 6 <= bytes.count, bytes[index] == 0x0B, bytes[index + 1] == 0x77 else { return nil }
        let bsid = bytes[index + 5] >> 3
        guard (11...16).contains(bsid) else { return nil }
        streamType = bytes[index + 2] >> 6
        substream = bytes[index + 2] >> 3 & 0x07
        frameLength = (Int(bytes[index + 2] & 0x07) << 8 | Int(bytes[index + 3]) + 1) * 2
        let rateCode = bytes[index + 4] >> 6
        var reduced: UInt8 = 0
        if rateCode == 3 {
            reduced = bytes[index + 4] >> 4 & 0x03
            guard reduced < 3 else { return nil }
            blocks = 6
        } else {
            blocks = [1, 2, 3, 6][Int(bytes[index + 4] >> 4 & 0x03)]
        }
        let acmod = bytes[index + 4] >> 1 & 0x07
        let rate = rateCode < 3 ? AC3Header.sampleRates[Int(rateCode)] : AC3Header.sampleRates[Int(reduced)] / 2
        let kbits = frameLength * 8 * rate / (blocks * 256) / 1000
        configuration = Configuration(sampleRateCode: rateCode, reducedRateCode: reduced, bitStreamIdentification: bsid, audioCodingMode: acmod,
                                      hasLowFrequencyEffects: bytes[index + 4] & 1 == 1, dataRate: kbits)
    }
}
