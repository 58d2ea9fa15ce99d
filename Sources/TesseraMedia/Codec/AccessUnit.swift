/// One access unit of an elementary stream as an MP4 sample holds it: its decode and
/// presentation times (90 kHz ticks, 33 bits, as the transport stream gave them), whether a
/// decoder can start at it, and its bytes in the sample format (AAC: the raw frame; H.264: its
/// NAL units each after a 4-byte length).
public struct AccessUnit: Sendable, Equatable {
    /// Decode time.
    public let decodeTime: UInt64
    /// Presentation time.
    public let presentationTime: UInt64
    /// Whether decoding can start here (an IDR picture; every audio frame).
    public let isSync: Bool
    /// The sample's bytes.
    public let data: [UInt8]

    /// An access unit.
    public init(decodeTime: UInt64, presentationTime: UInt64, isSync: Bool, data: [UInt8]) {
        self.decodeTime = decodeTime
        self.presentationTime = presentationTime
        self.isSync = isSync
        self.data = data
    }
}
