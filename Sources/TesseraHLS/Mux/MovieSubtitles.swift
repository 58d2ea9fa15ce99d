#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// The subtitle files of a download: each WebVTT subtitle track's segments read
/// (`WebVTTSegment`), their cues put on the movie's clock by the runs the muxer placed (or, for
/// subtitles alone, on the playlist's timeline), and written as WebVTT or SubRip — beside a movie
/// as `<movie name>.<language>.<vtt|srt>` (its NAME, then its ID, when it has no LANGUAGE or
/// another track took that name) — staged until the download is published.
struct MovieSubtitles {
    private var staged: [(file: StagingFile, url: URL)] = []
    private var published: [URL] = []

    /// The files, as they will be named.
    var files: [URL] { staged.map(\.url) }

    /// Reads a subtitle track's `segments` and stages its file for `url` in `stagingFolder`, in `format`;
    /// the cues are placed by `clock` (the movie's), else on the playlist's timeline
    /// (`WebVTTTrack.playlistClock`). Returns the cues written and the file's bytes.
    /// - Throws: `malformed-media` for a segment that is not WebVTT; `destination-exists`,
    ///   `destination-unwritable`.
    @discardableResult
    mutating func stage(_ segments: [MovieMux.Segment], clock: MovieClock?, at url: URL, format: SubtitleFormat,
                        policy: OverwritePolicy, stagingFolder: String) throws(HLSError) -> (cues: Int, bytes: [UInt8]) {
        let cues = try Self.cues(of: segments, clock: clock)
        let bytes = Array(cues.text(as: format).utf8)
        let file: StagingFile
        do {
            // Staged in the movie's hidden folder: a killed run leaves nothing else behind.
            file = try StagingFile(destination: url, policy: policy, resumableAt: stagingFolder + "/.subtitles-\(staged.count).\(format.fileExtension)")
            try file.truncate()
            try file.append(bytes)
        } catch {
            throw HLSError(destination: error)
        }
        staged.append((file, url))
        return (cues.count, bytes)
    }

    /// The cues of a subtitle track's `segments` (EXT-X-GAP ones have none) on `clock` (the
    /// movie's), else on the playlist's timeline (`WebVTTTrack.playlistClock`).
    /// - Throws: `malformed-media` for a segment that is not WebVTT; `destination-unwritable`.
    static func cues(of segments: [MovieMux.Segment], clock: MovieClock?) throws(HLSError) -> WebVTTTrack {
        var parsed: [(segment: WebVTTSegment, run: Int)] = []
        var runs: [WebVTTTrack.RunStart] = []
        var start = 0.0
        for segment in segments {
            guard !segment.isGap else {   // no cues: the hole is kept by the timeline
                start += segment.duration
                continue
            }
            let bytes = try MovieMux.read(segment)
            let cues = try MovieMux.media(at: segment.path) { () throws(MediaError) in try WebVTTSegment(bytes) }
            if runs.last?.run != segment.run { runs.append(WebVTTTrack.RunStart(run: segment.run, timestampMap: cues.timestampMap, start: start)) }
            parsed.append((cues, segment.run))
            start += segment.duration
        }
        let placement = clock ?? WebVTTTrack.playlistClock(runs)
        var track = WebVTTTrack()
        for (segment, run) in parsed { track.add(segment, run: run, clock: placement) }
        return track
    }

    /// `<movie stem>.<LANGUAGE, else NAME, else the track's ID>.<format>`, one not taken yet.
    func name(for track: PackagePlan.Track, beside movie: URL, format: SubtitleFormat) -> URL {
        let stem = movie.deletingPathExtension().lastPathComponent
        let label = [track.info.language, track.info.name].compactMap { $0 }.map(Self.safe).first { !$0.isEmpty } ?? track.info.id
        let folder = movie.deletingLastPathComponent()
        var candidate = folder.appendingPathComponent("\(stem).\(label).\(format.fileExtension)")
        var index = 2
        while staged.contains(where: { $0.url == candidate }) {
            candidate = folder.appendingPathComponent("\(stem).\(label)-\(index).\(format.fileExtension)")
            index += 1
        }
        return candidate
    }

    /// Letters, digits, `-` and `_` of `text` (a file name part: no path, no dot).
    private static func safe(_ text: String) -> String {
        String(text.unicodeScalars.filter { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }.map(Character.init))
    }

    /// Publishes every staged file.
    /// - Throws: `destination-exists`, `destination-unwritable` (those published are withdrawn).
    mutating func commit() throws(HLSError) {
        for (file, _) in staged {
            do { published.append(try file.commit()) } catch {
                withdraw()
                throw HLSError(destination: error)
            }
        }
        staged = []
    }

    /// Removes the files published (the movie could not be).
    mutating func withdraw() {
        for url in published { try? FileManager.default.removeItem(at: url) }   // best effort: the error that made us withdraw is reported
        published = []
    }

    /// Removes the staged files.
    mutating func discard() {
        for (file, _) in staged { file.discard() }
        staged = []
    }
}
