/// The `HEVCDecoderConfigurationRecord` of an `hvcC` box (ISO/IEC 14496-15 §8.3.3.1): the
/// stream's video, sequence and picture parameter sets (complete arrays: the samples of an
/// `hvc1` track carry none in-band), the general profile, tier and level of its SPS, and samples
/// whose NAL units are each preceded by a 4-byte length.
public struct HEVCDecoderConfiguration: Sendable, Equatable, Codable {
    /// The first sequence parameter set, read.
    public let sequence: HEVCSequenceParameterSet
    /// The video parameter set NAL units, in order.
    public let videoParameterSets: [[UInt8]]
    /// The sequence parameter set NAL units, in order.
    public let sequenceParameterSets: [[UInt8]]
    /// The picture parameter set NAL units, in order.
    public let pictureParameterSets: [[UInt8]]

    /// The configuration of the parameter sets (at least one of each, each under 65,536 bytes).
    /// - Throws: `malformed-elementary-stream`.
    public init(videoParameterSets: [[UInt8]], sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]]) throws(MediaError) {
        guard !videoParameterSets.isEmpty, let first = sequenceParameterSets.first, !pictureParameterSets.isEmpty else {
            throw MediaError(.malformedElementaryStream, "An H.265 stream needs a video, a sequence and a picture parameter set before its first picture.")
        }
        let all = videoParameterSets + sequenceParameterSets + pictureParameterSets
        guard all.count < 256, all.allSatisfy({ $0.count > 2 && $0.count <= 0xFFFF }) else {
            throw MediaError(.malformedElementaryStream, "The H.265 parameter sets do not fit an hvcC record.")
        }
        sequence = try HEVCSequenceParameterSet(first)
        self.videoParameterSets = videoParameterSets
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
    }

    /// The record's bytes: version 1, the general profile, tier, compatibility, constraints and
    /// level from the SPS, no spatial segmentation or parallelism signalled, the chroma format
    /// and bit depths, no frame rate, the sub-layers, 4-byte NAL lengths, then the three arrays,
    /// each complete.
    public var record: [UInt8] {
        let compatibility = sequence.compatibility
        var bytes: [UInt8] = [1, sequence.profileByte,
                              UInt8(compatibility >> 24), UInt8(compatibility >> 16 & 0xFF), UInt8(compatibility >> 8 & 0xFF), UInt8(compatibility & 0xFF)]
        bytes += sequence.constraints
        bytes += [sequence.level, 0xF0, 0x00, 0xFC, 0xFC | sequence.chromaFormat, 0xF8 | sequence.bitDepthLumaMinus8,
                  0xF8 | sequence.bitDepthChromaMinus8, 0, 0,
                  (sequence.maxSubLayersMinus1 + 1) << 3 | (sequence.temporalIdNesting ? 0x04 : 0) | 0x03, 3]
        for (type, sets) in [(HEVCReader.NALType.videoParameterSet, videoParameterSets), (HEVCReader.NALType.sequenceParameterSet, sequenceParameterSets),
                             (HEVCReader.NALType.pictureParameterSet, pictureParameterSets)] {
            bytes += [0x80 | type, UInt8(sets.count >> 8), UInt8(sets.count & 0xFF)]
            for set in sets { bytes += [UInt8(set.count >> 8), UInt8(set.count & 0xFF)] + set }
        }
        return bytes
    }
}
