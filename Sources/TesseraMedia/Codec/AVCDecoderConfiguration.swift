/// The `AVCDecoderConfigurationRecord` of an `avcC` box (ISO/IEC 14496-15 §5.3.3.1): the
/// stream's sequence and picture parameter sets, its profile and level, and samples whose NAL
/// units are each preceded by a 4-byte length.
public struct AVCDecoderConfiguration: Sendable, Equatable, Codable {
    /// The first sequence parameter set, read.
    public let sequence: H264SequenceParameterSet
    /// The sequence parameter set NAL units, in order.
    public let sequenceParameterSets: [[UInt8]]
    /// The picture parameter set NAL units, in order.
    public let pictureParameterSets: [[UInt8]]

    /// The configuration of `sequenceParameterSets` and `pictureParameterSets` (at least one
    /// of each, each under 65,536 bytes).
    /// - Throws: `malformed-elementary-stream`.
    public init(sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]]) throws(MediaError) {
        guard let first = sequenceParameterSets.first, !pictureParameterSets.isEmpty else {
            throw MediaError(.malformedElementaryStream, "An H.264 stream needs a sequence and a picture parameter set before its first picture.")
        }
        guard sequenceParameterSets.count < 32, pictureParameterSets.count < 256,
              (sequenceParameterSets + pictureParameterSets).allSatisfy({ !$0.isEmpty && $0.count <= 0xFFFF }) else {
            throw MediaError(.malformedElementaryStream, "The H.264 parameter sets do not fit an avcC record.")
        }
        sequence = try H264SequenceParameterSet(first)
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
    }

    /// The record's bytes: version 1, profile, compatibility and level from the SPS, 4-byte
    /// NAL lengths, the parameter sets, and for the High profiles the chroma format and bit
    /// depths (no SPS extensions).
    public var record: [UInt8] {
        var bytes: [UInt8] = [1, sequence.profile, sequence.constraints, sequence.level, 0xFF, 0xE0 | UInt8(sequenceParameterSets.count)]
        for set in sequenceParameterSets { bytes += [UInt8(set.count >> 8), UInt8(set.count & 0xFF)] + set }
        bytes.append(UInt8(pictureParameterSets.count))
        for set in pictureParameterSets { bytes += [UInt8(set.count >> 8), UInt8(set.count & 0xFF)] + set }
        if [100, 110, 122, 144].contains(sequence.profile) {
            bytes += [0xFC | sequence.chromaFormat, 0xF8 | sequence.bitDepthLumaMinus8, 0xF8 | sequence.bitDepthChromaMinus8, 0]
        }
        return bytes
    }
}
