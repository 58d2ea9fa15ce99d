/// One PES packet of a transport stream, reassembled from its TS packets (ISO/IEC 13818-1
/// §2.4.3.6): the elementary stream it belongs to, its timestamps (90 kHz, 33 bits) and the
/// elementary stream bytes after its header.
public struct PESPacket: Sendable {
    /// The PID it arrived on.
    public let pid: UInt16
    /// The stream's `stream_type` in the program map.
    public let streamType: TSStreamType
    /// `PTS`, when the header has one: the presentation time of the first access unit that
    /// starts in this packet.
    public let pts: UInt64?
    /// `DTS`, when the header has one (else the decode time is the PTS).
    public let dts: UInt64?
    /// Whether its first TS packet set `random_access_indicator`.
    public let isRandomAccess: Bool
    /// The elementary stream bytes (`PES_packet_data_byte`s).
    public let data: [UInt8]
    /// Where its first TS packet starts in the stream.
    public let byteOffset: UInt64

    /// A PES packet (the demuxer makes them; a caller may make its own to feed a reader).
    public init(pid: UInt16, streamType: TSStreamType, pts: UInt64?, dts: UInt64?, isRandomAccess: Bool, data: [UInt8], byteOffset: UInt64) {
        self.pid = pid
        self.streamType = streamType
        self.pts = pts
        self.dts = dts
        self.isRandomAccess = isRandomAccess
        self.data = data
        self.byteOffset = byteOffset
    }

    /// The decode time: the DTS, else the PTS.
    public var decodeTime: UInt64? { dts ?? pts }
}
