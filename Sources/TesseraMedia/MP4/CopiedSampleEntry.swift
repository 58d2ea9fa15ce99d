/// A sample entry taken as written from a fragmented MP4 source's initialization section
/// (`avc1`, `hvc1`, `mp4a`, `ec-3`, … with its configuration boxes): written into the output's
/// `stsd` unchanged, so any codec the source carries is muxed without being understood.
public struct CopiedSampleEntry: Sendable, Hashable, Codable {
    /// The entry, header included.
    public let bytes: [UInt8]
    /// Whether it is visual (`vide`); else audio.
    public let isVideo: Bool
    /// The picture size of a visual entry.
    public let width: Int
    public let height: Int
    /// The source track's media timescale (an audio track keeps it: its sample rate, most often).
    public let timescale: UInt32

    /// The entry of `track`.
    public init(_ track: FragmentedMP4Init.Track) {
        bytes = track.sampleEntry
        isVideo = track.handler == "vide"
        width = track.width
        height = track.height
        timescale = track.timescale
    }
}
