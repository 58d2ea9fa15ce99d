/// The header of a self-delimiting audio frame in a transport stream's PES payload — ADTS (AAC),
/// AC-3, E-AC-3, MPEG audio (MP3) — as `AudioFrameReader` needs it: where the frame ends, what
/// of it is the MP4 sample, how many samples it decodes to, and the decoder configuration it
/// announces (a change of which becomes a further sample description).
public protocol AudioFrameHeader: Sendable, Codable {
    /// What the track's sample entry carries; equal configurations share a description.
    associatedtype Configuration: Sendable & Equatable & Codable
    /// The codec's name in messages ("ADTS", "AC-3", …).
    static var name: String { get }
    /// The longest frame (bytes kept between PES packets are bounded by it).
    static var maximumFrameLength: Int { get }
    /// The header at `index` of `bytes`, or nil when none starts there (or it is cut short).
    init?(_ bytes: [UInt8], at index: Int)
    /// The whole frame's length, header included.
    var frameLength: Int { get }
    /// Bytes at the frame's start that are not the MP4 sample (ADTS: its header; others: 0).
    var payloadOffset: Int { get }
    /// Samples the frame decodes to.
    var sampleCount: Int { get }
    /// Samples per second.
    var sampleRate: Int { get }
    /// The decoder configuration the frame announces.
    var configuration: Configuration { get }
    /// Why the muxer cannot carry the frame, or nil.
    var unsupported: String? { get }
}

extension AudioFrameHeader {
    public var payloadOffset: Int { 0 }
    public var unsupported: String? { nil }
}
