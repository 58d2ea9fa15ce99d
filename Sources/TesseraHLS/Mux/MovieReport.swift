#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// What a finished `MovieDownload` produced.
public struct MovieReport: Sendable {
    /// The published file (an MP4, or the subtitle file of a subtitles-only download).
    public let destination: URL
    /// The plan it followed: the tracks muxed and why each was chosen.
    public let plan: PackagePlanSummary
    /// The file's size.
    public let byteCount: UInt64
    /// The file's SHA-256; nil for a streamed MP4 written without it (`Writing.digest`).
    public let sha256: SHA256Digest?
    /// Each MP4 track in file order: its kind, language and samples (the one subtitle track
    /// and its cues, for a subtitles-only download).
    public let tracks: [Track]
    /// The subtitle files written beside it (WebVTT or SubRip, one per subtitle track).
    public let subtitles: [URL]
    /// The EXT-X-GAP segments left as holes (`allowsGaps`), by track.
    public let gaps: [PackageManifest.Gap]
    /// Resources taken from a checkpoint of an earlier run instead of fetched.
    public let resumedResources: Int

    /// One track of the file.
    public struct Track: Sendable, Equatable {
        /// What a track holds.
        public enum Kind: String, Sendable {
            case video, audio, subtitles
        }

        /// Pictures, sound or text.
        public let kind: Kind
        /// Its ISO 639-2/T language (`und` when unknown).
        public let language: String
        /// Samples (pictures, audio frames, cues).
        public let samples: Int
    }
}
