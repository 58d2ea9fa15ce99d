/// `stream_type` values of a program map table (ISO/IEC 13818-1 Table 2-34, and the SAMPLE-AES
/// types of Apple's MPEG-2 Stream Encryption Format for HTTP Live Streaming).
public struct TSStreamType: Hashable, Sendable, CustomStringConvertible {
    /// The byte.
    public let rawValue: UInt8
    /// Wraps a byte.
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// ISO/IEC 13818-2 (MPEG-2) video.
    public static let mpeg2Video = TSStreamType(0x02)
    /// ISO/IEC 11172-3 (MPEG-1) audio.
    public static let mpeg1Audio = TSStreamType(0x03)
    /// ISO/IEC 13818-3 (MPEG-2) audio.
    public static let mpeg2Audio = TSStreamType(0x04)
    /// PES packets with private data (ID3 as HLS timed metadata in some streams, DVB subtitles).
    public static let privatePES = TSStreamType(0x06)
    /// AAC in ADTS.
    public static let aacADTS = TSStreamType(0x0F)
    /// AAC in LATM.
    public static let aacLATM = TSStreamType(0x11)
    /// Metadata in PES packets (ID3 timed metadata).
    public static let metadataPES = TSStreamType(0x15)
    /// H.264 / AVC video.
    public static let h264 = TSStreamType(0x1B)
    /// H.265 / HEVC video.
    public static let hevc = TSStreamType(0x24)
    /// AC-3 audio (ATSC).
    public static let ac3 = TSStreamType(0x81)
    /// E-AC-3 audio (ATSC).
    public static let eac3 = TSStreamType(0x87)
    /// SAMPLE-AES H.264.
    public static let sampleAESH264 = TSStreamType(0xDB)
    /// SAMPLE-AES AAC.
    public static let sampleAESAAC = TSStreamType(0xCF)
    /// SAMPLE-AES AC-3.
    public static let sampleAESAC3 = TSStreamType(0xC1)
    /// SAMPLE-AES E-AC-3.
    public static let sampleAESEAC3 = TSStreamType(0xC2)

    /// The types HLS streams carry in the clear.
    public static let clearHLSTypes: Set<TSStreamType> = [.h264, .hevc, .aacADTS, .aacLATM, .mpeg1Audio, .mpeg2Audio, .ac3, .eac3,
                                                           .metadataPES, .privatePES]
    /// The SAMPLE-AES types: the payload is still encrypted.
    public static let sampleAESTypes: Set<TSStreamType> = [.sampleAESH264, .sampleAESAAC, .sampleAESAC3, .sampleAESEAC3]

    /// Whether this is a video type (H.264, HEVC, MPEG-2 video).
    public var isVideo: Bool { self == .h264 || self == .hevc || self == .mpeg2Video }

    public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// PIDs and table IDs with fixed meaning (ISO/IEC 13818-1 Tables 2-3 and 2-31).
public enum TSConstants {
    /// The PID of the program association table.
    public static let patPID: UInt16 = 0x0000
    /// The null-packet PID.
    public static let nullPID: UInt16 = 0x1FFF
    /// PIDs reserved by the standard.
    public static let reservedPIDs: ClosedRange<UInt16> = 0x0002...0x000F
    /// `table_id` of a program association section.
    public static let programAssociationTableID: UInt8 = 0x00
    /// `table_id` of a program map section.
    public static let programMapTableID: UInt8 = 0x02
    /// `table_id` value 0xFF: stuffing after the last section of a payload.
    public static let stuffingTableID: UInt8 = 0xFF
    /// The longest `section_length` of a PAT or PMT (§2.4.4.3, §2.4.4.8).
    public static let maximumSectionLength = 1021
}
