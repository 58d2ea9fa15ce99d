/// The start of a PES packet (ISO/IEC 13818-1 §2.4.3.6, Table 2-21) as it begins a TS payload:
/// `packet_start_code_prefix`, `stream_id`, and — for streams with the optional header — the
/// `PTS_DTS_flags` and where the PTS and DTS fields sit, read without allocating.
public struct PESHeader: Sendable {
    /// `stream_id`.
    public let streamID: UInt8
    /// `PTS_DTS_flags` (`10` PTS, `11` PTS and DTS, `01` forbidden), 0 without the optional header.
    public let ptsDTSFlags: UInt8
    /// Where the PTS field starts, relative to the payload, when flagged.
    public var ptsOffset: Int? { ptsDTSFlags & 0b10 != 0 ? 9 : nil }
    /// Where the DTS field starts, relative to the payload, when flagged.
    public var dtsOffset: Int? { ptsDTSFlags == 0b11 ? 14 : nil }
    /// `PES_header_data_length` (0 without the optional header).
    public let headerDataLength: Int
    /// Whether the stream carries the optional PES header (Table 2-22: not padding,
    /// private_stream_2, ECM, EMM, DSM-CC, H.222.1 type E or the program stream directory).
    public var hasOptionalHeader: Bool { Self.hasOptionalHeader(streamID) }
    /// Where the elementary stream bytes start, relative to the payload.
    public var dataOffset: Int { hasOptionalHeader ? 9 + headerDataLength : 6 }

    /// Whether `streamID` carries the optional PES header.
    public static func hasOptionalHeader(_ streamID: UInt8) -> Bool {
        ![PESStreamID.programStreamMap, PESStreamID.paddingStream, PESStreamID.privateStream2, PESStreamID.ecm, PESStreamID.emm,
          PESStreamID.programStreamDirectory, PESStreamID.dsmcc, PESStreamID.typeE].contains(streamID)
    }

    /// Reads the PES header at the start of `payload`; nil when the start code is missing or the
    /// fixed part (6 bytes, 9 with the optional header) does not fit.
    public init?(_ payload: UnsafeRawBufferPointer) {
        guard payload.count >= 6, payload[0] == 0, payload[1] == 0, payload[2] == 1 else { return nil }
        streamID = payload[3]
        guard Self.hasOptionalHeader(streamID), payload.count >= 9 else {
            ptsDTSFlags = 0
            headerDataLength = 0
            return
        }
        ptsDTSFlags = payload[7] >> 6
        headerDataLength = Int(payload[8])
    }

    /// Whether the fields `PTS_DTS_flags` announces fit in `count` payload bytes.
    public func timestampsFit(in count: Int) -> Bool {
        switch ptsDTSFlags {
        case 0b11: count >= 19
        case 0b10: count >= 14
        default: true
        }
    }
}

/// `stream_id` values (ISO/IEC 13818-1 Table 2-22).
public enum PESStreamID {
    /// `program_stream_map`.
    public static let programStreamMap: UInt8 = 0xBC
    /// `padding_stream`.
    public static let paddingStream: UInt8 = 0xBE
    /// `private_stream_2`.
    public static let privateStream2: UInt8 = 0xBF
    /// `ECM_stream`.
    public static let ecm: UInt8 = 0xF0
    /// `EMM_stream`.
    public static let emm: UInt8 = 0xF1
    /// `DSMCC_stream`.
    public static let dsmcc: UInt8 = 0xF2
    /// `ITU-T Rec. H.222.1 type E`.
    public static let typeE: UInt8 = 0xF8
    /// `program_stream_directory`.
    public static let programStreamDirectory: UInt8 = 0xFF
    /// Audio (`110x xxxx`) and video (`1110 xxxx`) streams: 0xC0…0xEF.
    public static let audioAndVideo: ClosedRange<UInt8> = 0xC0...0xEF
}
