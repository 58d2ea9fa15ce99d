#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// The subtitle files of a movie: each WebVTT subtitle track's segments read (`WebVTTSegment`),
/// their cues put on the movie's clock by the runs the muxer placed (`WebVTTTrack`), and written
/// beside the movie as `<movie name>.<language>.vtt` (its NAME, then its place, when it has no
/// LANGUAGE or another track took that name), staged until the movie is published.
struct MovieSubtitles {
    private var staged: [(file: StagingFile, url: URL)] = []
    private var published: [URL] = []

    /// The files, as they will be named.
    var files: [URL] { staged.map(\.url) }

    /// Reads `track`'s `segments` and stages its file for beside `movie` in `stagingFolder`.
    /// - Throws: `malformed-media` for a segment that is not WebVTT; `destination-exists`,
    ///   `destination-unwritable`.
    mutating func stage(_ track: PackagePlan.Track, segments: [MovieMux.Segment], clock: MovieClock, beside movie: URL,
                        policy: OverwritePolicy, stagingFolder: String) throws(HLSError) {
        var cues = WebVTTTrack()
        for segment in segments {
            let bytes = try MovieMux.read(segment)
            let parsed = try MovieMux.media(at: segment.path) { () throws(MediaError) in try WebVTTSegment(bytes) }
            cues.add(parsed, run: segment.run, clock: clock)
        }
        let url = name(for: track, beside: movie)
        let file: StagingFile
        do {
            // Staged in the movie's hidden folder: a killed run leaves nothing else behind.
            file = try StagingFile(destination: url, policy: policy, resumableAt: stagingFolder + "/.subtitles-\(staged.count).vtt")
            try file.truncate()
            try file.append(Array(cues.text.utf8))
        } catch {
            throw HLSError(destination: error)
        }
        staged.append((file, url))
    }

    /// `<movie stem>.<LANGUAGE, else NAME, else the track's ID>.vtt`, one not taken yet.
    private func name(for track: PackagePlan.Track, beside movie: URL) -> URL {
        let stem = movie.deletingPathExtension().lastPathComponent
        let label = [track.info.language, track.info.name].compactMap { $0 }.map(Self.safe).first { !$0.isEmpty } ?? track.info.id
        var candidate = movie.deletingLastPathComponent().appendingPathComponent("\(stem).\(label).vtt")
        var index = 2
        while staged.contains(where: { $0.url == candidate }) {
            candidate = movie.deletingLastPathComponent().appendingPathComponent("\(stem).\(label)-\(index).vtt")
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
