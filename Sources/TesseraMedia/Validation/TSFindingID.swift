/// The stable IDs of `TSValidator` findings, each with its severity (docs/VALIDATION.md).
public enum TSFindingID: String, Sendable, CaseIterable {
    /// The stream holds no packet.
    case empty = "ts-empty"
    /// The stream does not end on a 188-byte boundary.
    case partialPacket = "ts-partial-packet"
    /// A packet does not start with 0x47 (garbage, 192/204-byte packets, encrypted bytes).
    case syncLost = "ts-sync-lost"
    /// transport_error_indicator is set.
    case transportError = "ts-transport-error"
    /// transport_scrambling_control is not 00.
    case scrambled = "ts-scrambled"
    /// adaptation_field_control is the reserved 00.
    case reservedAdaptationControl = "ts-reserved-adaptation-control"
    /// The adaptation field length does not fit the packet.
    case adaptationLength = "ts-adaptation-length"
    /// A reserved PID (0x0002–0x000F) is used.
    case reservedPID = "ts-reserved-pid"
    /// A continuity counter jumped, repeated twice, or changed on an adaptation-only packet.
    case continuity = "ts-continuity"
    /// A continuity counter restarts at a segment join (common, and harmless when segments are
    /// demuxed independently).
    case continuityAtJoin = "ts-continuity-join"
    /// A PCR did not increase without a discontinuity indicator.
    case pcrBackwards = "ts-pcr-backwards"
    /// Two PCRs are more than 100 ms apart.
    case pcrInterval = "ts-pcr-interval"
    /// A segment's media lasts longer or shorter than its EXTINF by more than a frame.
    case durationMismatch = "ts-extinf-mismatch"
    /// A PAT/PMT section is malformed (pointer, length, syntax).
    case psiMalformed = "ts-psi-malformed"
    /// A PAT/PMT section fails its CRC-32.
    case psiCRC = "ts-psi-crc"
    /// The PAT does not list exactly one program.
    case programCount = "ts-program-count"
    /// No PAT was found.
    case missingPAT = "ts-missing-pat"
    /// The PMT the PAT points to was not found.
    case missingPMT = "ts-missing-pmt"
    /// A stream type says SAMPLE-AES: the payload is still encrypted.
    case sampleAES = "ts-sample-aes"
    /// A stream type is not one HLS uses.
    case unknownStreamType = "ts-unknown-stream-type"
    /// A unit start lacks the PES start code.
    case pesStart = "ts-pes-start"
    /// PTS_DTS_flags is the forbidden 01.
    case pesFlags = "ts-pes-flags"
    /// An audio or video PES carries no PTS.
    case pesNoPTS = "ts-pes-no-pts"
    /// A PTS or DTS has wrong prefix or marker bits.
    case timestampMarkers = "ts-timestamp-markers"
    /// DTS is after PTS.
    case dtsAfterPTS = "ts-dts-after-pts"
    /// Decode times of a PID do not increase (modulo 2^33).
    case decodeOrder = "ts-decode-order"

    /// How bad a finding of this ID is.
    public var severity: MediaFinding.Severity {
        switch self {
        case .reservedPID, .pcrBackwards, .pcrInterval, .unknownStreamType, .durationMismatch: .warning
        case .continuityAtJoin: .info
        default: .error
        }
    }
}
