/// The 4-byte header of an MPEG-2 transport stream packet (ISO/IEC 13818-1 §2.4.3.2), read in
/// the standard's table order.
public struct TSPacketHeader: Sendable {
    /// `transport_error_indicator`.
    public let transportErrorIndicator: Bool
    /// `payload_unit_start_indicator`: a PES packet or PSI section starts in this payload.
    public let payloadUnitStartIndicator: Bool
    /// `PID`.
    public let pid: UInt16
    /// `transport_scrambling_control` (HLS never scrambles at this layer).
    public let transportScramblingControl: UInt8
    /// `adaptation_field_control`: bit 1 an adaptation field, bit 0 a payload.
    public let adaptationFieldControl: UInt8
    /// `continuity_counter`.
    public let continuityCounter: UInt8

    /// Whether `adaptation_field_control` announces a payload.
    public var hasPayload: Bool { adaptationFieldControl & 0b01 != 0 }
    /// Whether `adaptation_field_control` announces an adaptation field.
    public var hasAdaptationField: Bool { adaptationFieldControl & 0b10 != 0 }

    /// The header at the start of `bytes` (at least 4); nil without `sync_byte`.
    @inline(__always)
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 4, bytes[0] == TSPacket.syncByte else { return nil }
        transportErrorIndicator = bytes[1] & 0x80 != 0
        payloadUnitStartIndicator = bytes[1] & 0x40 != 0
        pid = UInt16(bytes[1] & 0x1F) << 8 | UInt16(bytes[2])
        transportScramblingControl = bytes[3] >> 6
        adaptationFieldControl = (bytes[3] >> 4) & 0b11
        continuityCounter = bytes[3] & 0x0F
    }
}

/// One MPEG-2 transport stream packet: its header, adaptation field and where its payload
/// starts (ISO/IEC 13818-1 §2.4.3.2, §2.4.3.4), read from 188 bytes without allocating. Offsets
/// are positions inside the packet, so writers (timestamp rebasing) rewrite fields in place.
public struct TSPacket: Sendable {
    /// Bytes in a packet.
    public static let size = 188
    /// `sync_byte`.
    public static let syncByte: UInt8 = 0x47
    /// The offset of the byte holding `continuity_counter` (its low four bits).
    public static let continuityCounterOffset = 3

    /// What makes 188 bytes unreadable as a packet; the header comes along when it was readable.
    public enum Defect: Error, Sendable {
        /// The first byte is not `sync_byte` 0x47.
        case syncByte(UInt8)
        /// `adaptation_field_control` is the reserved `00`.
        case reservedAdaptationFieldControl(TSPacketHeader)
        /// `adaptation_field_length` does not fit the packet (183 with no payload, ≤ 182 with one).
        case adaptationFieldLength(Int, TSPacketHeader)
    }

    /// The header.
    public let header: TSPacketHeader
    /// The adaptation field, when there is one.
    public let adaptationField: TSAdaptationField?
    /// Where the payload starts (188 when there is none).
    public let payloadOffset: Int

    /// `PID`.
    public var pid: UInt16 { header.pid }
    /// Whether the packet carries payload bytes.
    public var hasPayload: Bool { header.hasPayload && payloadOffset < Self.size }

    /// Reads the packet in `bytes` (exactly 188 bytes).
    /// - Throws: `Defect` for a wrong sync byte, the reserved adaptation-field control, or an
    ///   adaptation field that does not fit.
    @inline(__always)
    public init(_ bytes: UnsafeRawBufferPointer) throws(Defect) {
        precondition(bytes.count == Self.size, "a transport stream packet is 188 bytes")
        guard let header = TSPacketHeader(bytes) else { throw .syncByte(bytes[0]) }
        self.header = header
        guard header.adaptationFieldControl != 0 else { throw .reservedAdaptationFieldControl(header) }
        guard header.hasAdaptationField else {
            adaptationField = nil
            payloadOffset = 4
            return
        }
        let length = Int(bytes[4])
        guard header.hasPayload ? length <= 182 : length == 183 else { throw .adaptationFieldLength(length, header) }
        adaptationField = TSAdaptationField(bytes, length: length)
        payloadOffset = 5 + length
    }

    /// The payload of `packet` (the 188 bytes this was read from).
    public func payload(of packet: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: packet[payloadOffset...])
    }
}

/// A packet's adaptation field (ISO/IEC 13818-1 §2.4.3.4): the flags HLS tools use and the PCR.
public struct TSAdaptationField: Sendable {
    /// Where `program_clock_reference_base` starts in the packet, when there is one.
    public static let programClockReferenceOffset = 6

    /// `adaptation_field_length`.
    public let length: Int
    /// `discontinuity_indicator`: counters and the PCR restart here.
    public let discontinuityIndicator: Bool
    /// `random_access_indicator`.
    public let randomAccessIndicator: Bool
    /// `program_clock_reference_base` (90 kHz, 33 bits), when `PCR_flag` is set and the field is
    /// long enough.
    public let programClockReferenceBase: UInt64?
    /// `program_clock_reference_extension` (the 27 MHz remainder), beside the base.
    public let programClockReferenceExtension: UInt16

    @inline(__always)
    init(_ packet: UnsafeRawBufferPointer, length: Int) {
        self.length = length
        let flags = length > 0 ? packet[5] : 0
        discontinuityIndicator = flags & 0x80 != 0
        randomAccessIndicator = flags & 0x40 != 0
        if flags & 0x10 != 0, length >= 7 {
            programClockReferenceBase = MPEGTimestamp.readClockBase(packet, at: Self.programClockReferenceOffset)
            programClockReferenceExtension = UInt16(packet[10] & 1) << 8 | UInt16(packet[11])
        } else {
            programClockReferenceBase = nil
            programClockReferenceExtension = 0
        }
    }

    /// The PCR in 27 MHz ticks (base × 300 + extension), when there is one.
    public var programClockReference: UInt64? {
        programClockReferenceBase.map { $0 * 300 + UInt64(programClockReferenceExtension) }
    }
}
