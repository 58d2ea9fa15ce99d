/// How much of a recording is kept while it runs (rolling retention, opt-in): the oldest
/// complete media is evicted — a prefix of the variant's segments and the rendition segments
/// aligned before them, their files deleted once a checkpoint without them is durable — so the
/// recording holds at most this much. Local names are never reused; the package's manifest
/// lists what was evicted.
public enum RecordingRetention: Sendable, Equatable {
    /// At most this many seconds of the variant's media (gaps included).
    case duration(Duration)
    /// At most this many bytes of media files, every track's.
    case bytes(UInt64)
}
