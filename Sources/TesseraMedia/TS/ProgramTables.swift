/// The program association and program map sections HLS uses (ISO/IEC 13818-1 §2.4.4.3,
/// §2.4.4.8), read in table order from a whole section (header through CRC_32; check the CRC
/// with `MPEG2CRC32` first).
public enum ProgramTables {
    /// One program of a PAT.
    public struct Program: Sendable, Equatable {
        /// `program_number` (never 0: that entry names the network PID).
        public let number: UInt16
        /// `program_map_PID`.
        public let mapPID: UInt16
    }

    /// One elementary stream of a PMT.
    public struct Stream: Sendable, Equatable {
        /// `stream_type`.
        public let type: TSStreamType
        /// `elementary_PID`.
        public let pid: UInt16
    }

    /// A PMT's `PCR_PID` and streams.
    public struct ProgramMap: Sendable, Equatable {
        /// `PCR_PID`.
        public let pcrPID: UInt16
        /// The streams in table order.
        public let streams: [Stream]
    }

    /// Whether `section` uses the long syntax PAT and PMT need and is long enough for it.
    public static func hasLongSyntax(_ section: [UInt8]) -> Bool {
        section.count >= 12 && section[1] & 0x80 != 0
    }

    /// The programs of a PAT section; nil when it is not one.
    public static func programAssociation(_ section: [UInt8]) -> [Program]? {
        guard hasLongSyntax(section), section[0] == TSConstants.programAssociationTableID else { return nil }
        let end = section.count - 4
        var programs: [Program] = []
        var index = 8
        while index + 4 <= end {
            let number = BigEndian.uint16(section, index)
            let mapPID = BigEndian.uint16(section, index + 2) & 0x1FFF
            if number != 0 { programs.append(Program(number: number, mapPID: mapPID)) }
            index += 4
        }
        return programs
    }

    /// The PCR PID and streams of a PMT section; nil when it is not one.
    public static func programMap(_ section: [UInt8]) -> ProgramMap? {
        guard hasLongSyntax(section), section[0] == TSConstants.programMapTableID else { return nil }
        let end = section.count - 4
        let pcrPID = BigEndian.uint16(section, 8) & 0x1FFF
        var streams: [Stream] = []
        var index = 12 + Int(BigEndian.uint16(section, 10) & 0x0FFF)   // after program_info
        while index + 5 <= end {
            streams.append(Stream(type: TSStreamType(section[index]), pid: BigEndian.uint16(section, index + 1) & 0x1FFF))
            index += 5 + Int(BigEndian.uint16(section, index + 3) & 0x0FFF)   // after ES_info
        }
        return ProgramMap(pcrPID: pcrPID, streams: streams)
    }
}
