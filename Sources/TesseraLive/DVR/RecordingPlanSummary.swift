/// What a recording follows, said before its first media byte: the tracks (the variant's, then
/// each rendition's ID) and why each was chosen.
public struct RecordingPlanSummary: Sendable, Equatable {
    /// Track IDs: `video` (the variant or the media playlist given), then `audio-1`, `subtitles-1`…
    public let tracks: [String]
    /// Why each was chosen, in the same order.
    public let provenance: [String]
}
