/// Reads audio frames out of the stream a transport stream's PES packets carry (ISO/IEC
/// 13818-1 §2.4.3.7 for the PTS), for any self-delimiting frame format (`AudioFrameHeader`:
/// ADTS, AC-3, E-AC-3, MPEG audio): frames may straddle PES packets; a PES PTS times the first
/// frame that starts in its packet, the frames after it continue by their sample counts
/// (counted in samples from that PTS, so 44.1 kHz does not drift). Each frame's header must keep
/// the stream's configuration: a change (another rate or channel layout) is reported by
/// `configurationChanged` for the muxer to carry, never merged silently.
public struct AudioFrameReader<Header: AudioFrameHeader>: Sendable, Codable {
    /// The stream's configuration (the latest, after a change).
    public private(set) var configuration: Header.Configuration?
    /// The last frame's header.
    public private(set) var header: Header?
    /// Whether a frame since the last `consume` changed the configuration (kept: the new one).
    public private(set) var configurationChanged = false
    private var carry: [UInt8] = []
    /// The PTS of the next frame and the samples since the PTS it counts from.
    private var clock: FrameClock?

    /// The PTS frames count from, and the samples since it.
    private struct FrameClock: Sendable, Codable {
        let base: UInt64
        let samples: Int
    }

    /// A reader at the start of a stream.
    public init() {}

    /// The frames that `packet` completes (its data after what earlier packets left), each an
    /// access unit whose data is the MP4 sample.
    /// - Throws: `malformed-elementary-stream` for bytes that are not frames of the format, or
    ///   frames before any PTS; `unsupported-stream` for a frame the muxer cannot carry.
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
            guard let header = Header(bytes, at: index) else {
                guard bytes.count - index < 16 else {
                    throw MediaError(.malformedElementaryStream, "PID \(packet.pid) holds bytes that are not an \(Header.name) frame at byte \(packet.byteOffset).")
                }
                break
            }
            guard index + header.frameLength <= bytes.count else { break }
            if let reason = header.unsupported { throw MediaError(.unsupportedStream, "PID \(packet.pid) at byte \(packet.byteOffset): \(reason).") }
            if index >= startsHere, !timed, let pts = packet.pts {
                clock = FrameClock(base: pts, samples: 0)
                timed = true
            }
            guard let (base, samples) = clock.map({ ($0.base, $0.samples) }) else {
                throw MediaError(.malformedElementaryStream, "PID \(packet.pid) starts an \(Header.name) frame before any PTS.")
            }
            let announced = header.configuration
            if let configuration, configuration != announced { configurationChanged = true }
            if configuration == nil || configurationChanged { configuration = announced }
            self.header = header
            let time = (base + UInt64(samples) * MPEGTimestamp.ticksPerSecond / UInt64(header.sampleRate)) & MPEGTimestamp.mask
            units.append(AccessUnit(decodeTime: time, presentationTime: time, isSync: true,
                                    data: Array(bytes[(index + header.payloadOffset)..<(index + header.frameLength)])))
            clock = FrameClock(base: base, samples: samples + header.sampleCount)
            index += header.frameLength
        }
        carry = Array(bytes[index...])
        guard carry.count <= Header.maximumFrameLength else {
            throw MediaError(.malformedElementaryStream, "PID \(packet.pid) has an \(Header.name) frame longer than \(Header.maximumFrameLength) bytes.")
        }
        return units
    }

    /// Ends the stream.
    /// - Throws: `malformed-elementary-stream` when it ends inside a frame.
    public func finish() throws(MediaError) {
        guard carry.isEmpty else {
            throw MediaError(.malformedElementaryStream, "The \(Header.name) stream ends \(carry.count) bytes into a frame.")
        }
    }
}

/// AAC frames in ADTS.
public typealias ADTSReader = AudioFrameReader<ADTSHeader>
