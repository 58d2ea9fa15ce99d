/// Reads AAC frames out of the ADTS stream a transport stream's PES packets carry (ISO/IEC
/// 13818-7 §6.2; ISO/IEC 13818-1 §2.4.3.7 for the PTS): frames may straddle PES packets; a PES
/// PTS times the first frame that starts in its packet, the frames after it continue at 1,024
/// samples each (counted in samples from that PTS, so 44.1 kHz does not drift). Each frame's
/// header must keep the stream's configuration: a change (another rate, object type or channel
/// layout) is reported by `configurationChanged` for the muxer to carry, never merged silently.
public struct ADTSReader: Sendable {
    /// The stream's configuration (the latest, after a change).
    public private(set) var configuration: AACConfiguration?
    /// Whether a frame since the last `consume` changed the configuration (kept: the new one).
    public private(set) var configurationChanged = false
    private var carry: [UInt8] = []
    /// The PTS of the next frame and the samples since the PTS it counts from.
    private var clock: (base: UInt64, samples: Int)?
    /// Bytes kept between PES packets: one frame is at most 8,191.
    private static let maximumCarry = 8191

    /// A reader at the start of a stream.
    public init() {}

    /// The AAC frames that `packet` completes (its data after what earlier packets left).
    /// - Throws: `malformed-elementary-stream` for bytes that are not ADTS frames, or frames
    ///   before any PTS.
    public mutating func consume(_ packet: PESPacket) throws(MediaError) -> [AccessUnit] {
        configurationChanged = false
        var bytes = carry
        carry = []
        let startsHere = bytes.count
        bytes += packet.data
        var units: [AccessUnit] = []
        var index = 0
        var timed = false
        while index < bytes.count {
            guard let header = ADTSHeader(bytes, at: index) else {
                guard bytes.count - index < 7 else {
                    throw MediaError(.malformedElementaryStream, "PID \(packet.pid) holds bytes that are not an ADTS frame at byte \(packet.byteOffset).")
                }
                break
            }
            guard index + header.frameLength <= bytes.count else { break }
            if index >= startsHere, !timed, let pts = packet.pts {
                clock = (pts, 0)
                timed = true
            }
            guard let (base, samples) = clock else {
                throw MediaError(.malformedElementaryStream, "PID \(packet.pid) starts an AAC frame before any PTS.")
            }
            if let configuration, configuration != header.configuration { configurationChanged = true }
            if configuration == nil || configurationChanged { configuration = header.configuration }
            let time = (base + UInt64(samples) * MPEGTimestamp.ticksPerSecond / UInt64(header.sampleRate)) & MPEGTimestamp.mask
            units.append(AccessUnit(decodeTime: time, presentationTime: time, isSync: true,
                                    data: Array(bytes[(index + header.headerLength)..<(index + header.frameLength)])))
            clock = (base, samples + header.sampleCount)
            index += header.frameLength
        }
        carry = Array(bytes[index...])
        guard carry.count <= Self.maximumCarry else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid) has an ADTS frame longer than 8,191 bytes.")
        }
        return units
    }

    /// Ends the stream.
    /// - Throws: `malformed-elementary-stream` when it ends inside a frame.
    public func finish() throws(MediaError) {
        guard carry.isEmpty else {
            throw MediaError(.malformedElementaryStream, "The ADTS stream ends \(carry.count) bytes into a frame.")
        }
    }
}
