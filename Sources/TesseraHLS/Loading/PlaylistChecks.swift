/// What a playlist read by `PlaylistLoader` must satisfy besides parsing.
package enum PlaylistChecks: Sendable, Equatable {
    /// No problem that would make a job fetch the wrong bytes or skip media (a segment without
    /// EXTINF, an unreadable key, map or byte range, a missing target duration): such a playlist
    /// is refused with `invalid-playlist`.
    case usable
    /// Whatever the parser takes, its diagnostics kept for the caller to report (a presentation
    /// graph).
    case diagnosed
}
