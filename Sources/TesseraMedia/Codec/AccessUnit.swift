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
    /// The sample's bytes (empty when a reader was asked for sizes alone).
    public let data: [UInt8]
    /// The sample's size in bytes.
    public let size: Int

    /// An access unit of `data`.
    public init(decodeTime: UInt64, presentationTime: UInt64, isSync: Bool, data: [UInt8]) {
        self.decodeTime = decodeTime
        self.presentationTime = presentationTime
        self.isSync = isSync
        self.data = data
        size = data.count
    }

    /// An access unit of `size` bytes not kept (a muxer's first pass needs the timing alone).
    public init(decodeTime: UInt64, presentationTime: UInt64, isSync: Bool, size: Int) {
        self.decodeTime = decodeTime
        self.presentationTime = presentationTime
        self.isSync = isSync
        data = []
        self.size = size
    }
}
