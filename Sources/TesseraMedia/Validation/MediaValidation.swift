/// Structural validation of one media file or resource by the format its first bytes announce —
/// MPEG-TS (`TSValidator`), MP4 (`MP4Validator`: progressive, or fragmented — an initialization
/// section or a media segment alone) or WebVTT (`WebVTTValidator`) — the one dispatch `tessera validate`, the jobs'
/// per-resource checks and `verify-package --media` share. Other formats (packed audio, or
/// bytes that announce none) are not validated: `format` is nil for those that announce none.
public enum MediaValidation {
    /// What validating found.
    public struct Result: Sendable {
        /// The format the bytes announce (nil: none of those validated, nor packed audio).
        public let format: MediaFormat?
        /// The findings (empty when not validated).
        public let findings: [MediaFinding]
        /// Findings of each ID beyond the validator's cap, not listed.
        public let suppressed: [String: Int]
        /// Whether an MP4 file lists its samples in its `moov` (progressive) rather than in fragments.
        public var isProgressiveMP4 = false

        /// The first error-severity finding: the bytes are not valid media of their format.
        public var firstError: MediaFinding? { findings.first { $0.severity == .error } }
    }

    /// Bytes read per chunk of MPEG-TS.
    public static let chunkBytes = 1 << 20
    /// The largest WebVTT validated (read whole); a larger one is an error finding.
    public static let maximumWebVTTBytes: UInt64 = 16 << 20

    /// Validates the bytes of `source`.
    /// - Complexity: O(size), in chunks (fMP4 reads box headers and the boxes it parses).
    public static func validate(_ source: some MP4ByteSource) -> Result {
        let head = source.read(at: 0, count: 2 * TSPacket.size)
        // A transport stream is taken on its first sync byte: the validator says what follows.
        let format = MediaFormat.detect(head) ?? (head.first == TSPacket.syncByte ? .mpegTS : nil)
        switch format {
        case .fragmentedMP4:
            var validator = MP4Validator()
            let findings = validator.validate(source)
            return Result(format: format, findings: findings, suppressed: validator.suppressed, isProgressiveMP4: validator.isProgressive)
        case .webVTT:
            guard source.size <= maximumWebVTTBytes else {
                let finding = MediaFinding(id: "webvtt-too-large", severity: .error, byteOffset: 0, packetIndex: nil,
                                           message: "A WebVTT resource of \(source.size) bytes; at most \(maximumWebVTTBytes) are read (segments are small).")
                return Result(format: format, findings: [finding], suppressed: [:])
            }
            var validator = WebVTTValidator()
            let findings = validator.validate(source.read(at: 0, count: Int(source.size)))
            return Result(format: format, findings: findings, suppressed: validator.suppressed)
        case .mpegTS:
            var validator = TSValidator()
            var offset: UInt64 = 0
            while offset < source.size {
                // Bytes in memory are checked where they lie; a file's are read a chunk at a time.
                let consumed = source.withBytes(at: offset, count: chunkBytes) { chunk -> Int in
                    if !chunk.isEmpty { validator.consume(chunk) }
                    return chunk.count
                }
                guard consumed > 0 else { break }
                offset += UInt64(consumed)
            }
            return Result(format: format, findings: validator.finish(), suppressed: validator.suppressed)
        case .packedAudio, nil:
            return Result(format: format, findings: [], suppressed: [:])
        }
    }
}
