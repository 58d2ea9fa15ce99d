#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// The output of a movie download: the plan's resources into a hidden package folder beside
/// the destination (the package's output, with its checkpoints and restore). An MP4 is streamed:
/// the muxed tracks' segments become the samples of the folder's body file as they arrive
/// (`MovieStreamer`, the folder's transform) and the file is made whole at the end
/// (`StreamedMovieFile`). MPEG-TS output and embedded subtitles stage the segments, time each as
/// it is written (`MovieTimingPass`) and mux them once every segment is in (`MovieMux`) into a
/// file staged in that folder. Each subtitle track is a WebVTT file beside it (`MovieSubtitles`);
/// the files are published with one link each and the folder removed.
package final class MovieOutput: JobOutput {
    private let plan: PackagePlan
    private let destination: URL
    private let policy: OverwritePolicy
    /// Whether the variant's own audio is taken when no audio rendition is.
    private let takesVariantAudio: Bool
    /// What is written, and how.
    private let writing: MovieDownload.Writing
    /// The package output the transfer writes through.
    package let package: PackageOutput
    private var file: StagingFile?
    /// The subtitle tracks' sidecar files, staged.
    private var subtitles = MovieSubtitles()
    /// The tracks the file is muxed from, their segments in the staging folder.
    private let sources: [MovieMux.Source]
    /// The mux's first pass, taking each segment as the transfer writes it while they come in
    /// order (nil once one comes out of order — after a resume — or does not read: the pass is
    /// then made from the files, and meets the failure again with its whole context).
    private var timing: MovieTimingPass?
    /// The streamed mux, when the file is written as the segments arrive (`Writing.isStreamed`):
    /// the folder's transform for the muxed tracks, their samples in its body file.
    private var streamer: MovieStreamer?

    /// - Throws: `invalid-playlist` when a track's local playlist does not read back.
    init(plan: PackagePlan, destination: URL, policy: OverwritePolicy, takesVariantAudio: Bool, writing: MovieDownload.Writing,
         package: PackageOutput) throws(HLSError) {
        self.plan = plan
        self.takesVariantAudio = takesVariantAudio
        self.writing = writing
        self.destination = destination
        self.policy = policy
        self.package = package
        let root = package.writer.staging.stagingPath
        sources = writing.content == .subtitles ? []
            : try Self.sources(of: plan, in: root, takesVariantAudio: takesVariantAudio, audioOnly: writing.content == .audioOnly)
        guard !sources.isEmpty else { return }
        if writing.isStreamed {
            let muxed = Self.muxed(plan, takesVariantAudio: takesVariantAudio, audioOnly: writing.content == .audioOnly)
            let streamer = MovieStreamer(sources: sources, streams: muxed.map(\.track.stream),
                                         firstSequences: muxed.map { $0.track.playlist.segments.first?.mediaSequence ?? 0 }, body: Self.body,
                                         fragmented: writing.fragmented)
            self.streamer = streamer
            package.writer.transform = { fetched throws(HLSError) in try streamer.transform(fetched) }
            return
        }
        timing = MovieTimingPass(sources: sources)
        package.writer.onWritten = { [unowned self] path, range, bytes in
            self.time(URL(fileURLWithPath: root + "/" + path.value).standardizedFileURL.path, range, bytes)
        }
    }

    /// Offers the resource written to `range` of the file at `path` to the first pass.
    private func time(_ path: String, _ range: Range<UInt64>, _ bytes: [UInt8]?) {
        guard var pass = timing.take() else { return }   // taken out, so the pass's tables are not copied
        do {
            if try pass.offer(path: path, range: range, bytes: bytes) == false { return }
        } catch {
            return   // the pass from the files at `finish` meets this failure again and reports it
        }
        timing = pass
    }

    package var writer: PackageFolder { package.writer }
    package var resourcesDone: Int { package.resourcesDone }

    /// The body file of a streamed movie, in the staging folder.
    static let body = SafeRelativePath(".movie.body")!

    package func restore(_ records: [ResourceFileRecord]) throws(HLSError) -> JobRestoration {
        let restoration = try package.restore(records)
        try streamer?.restore(writer.takeVouched())
        return restoration
    }

    /// Muxes the staged tracks into the MP4 file and validates it whole (or, for subtitles
    /// alone, writes the subtitle file).
    /// - Throws: as `MovieMux.write`; `malformed-media` when the file does not validate or a
    ///   subtitle segment is not WebVTT; `destination-exists`, `destination-unwritable`.
    package func finish() throws(HLSError) -> MovieReport.Product {
        _ = try writer.finishMedia()
        HeapPolicy.returnFreedHeap()   // the transfer's buffers, before the mux makes its own
        let root = writer.staging.stagingPath
        if writing.content == .subtitles { return try finishSubtitles(in: root) }
        let subtitleTracks = writing.content == .movie ? plan.tracks.filter { $0.info.role == .subtitles } : []
        let isTransportStream = writing.container == .transportStream
        let written: (byteCount: UInt64, sha256: SHA256Digest?, tracks: [MP4Track], clock: MovieClock)
        let staged: StagingFile
        if let streamer {
            let made = try StreamedMovieFile.make(streamer, root: root, destination: destination, policy: policy, digest: writing.digest)
            (staged, written) = (made.file, (made.byteCount, made.sha256, made.tracks, made.clock))
            file = staged
        } else {
            var mux = MovieMux(sources: sources, fragmented: writing.fragmented)
            if writing.embedsSubtitles {
                mux.subtitles = try subtitleTracks.map { track throws(HLSError) in
                    MovieMux.Subtitles(segments: try Self.localSegments(of: track, in: root), language: ISO639.terminology(fromBCP47: track.info.language),
                                       name: track.info.name)
                }
            }
            do { staged = try StagingFile(destination: destination, policy: policy, resumableAt: root + (isTransportStream ? "/.movie.ts" : "/.movie.mp4")) } catch {
                throw HLSError(destination: error)
            }
            do { try staged.truncate() } catch { throw HLSError(destination: error) }   // an interrupted mux starts over
            file = staged
            // Taken out: the pass's own tables go once its result is made.
            let timed = try timing.take().flatMap { pass throws(HLSError) in pass.isComplete ? try pass.finish() : nil }
            // A transport stream is validated as it is written; an MP4 whole, before it is published.
            written = isTransportStream ? try mux.writeTransportStream(to: staged, timed: timed) : try mux.write(to: staged, timed: timed)
        }
        do { try staged.sync() } catch { throw HLSError(destination: error) }
        if !isTransportStream {
            guard let source = MP4FileSource(path: staged.stagingPath) else {
                throw HLSError(.destinationUnwritable, "The muxed file \(staged.stagingPath) could not be read back.")
            }
            var validator = MP4Validator()
            if let finding = validator.validate(source).first(where: { $0.severity == .error }) {
                throw HLSError(.malformedMedia, "The muxed file is not valid MP4: \(finding)")
            }
        }
        for track in subtitleTracks where !writing.embedsSubtitles {
            try subtitles.stage(try Self.localSegments(of: track, in: root), clock: written.clock,
                                at: subtitles.name(for: track, beside: destination, format: writing.subtitleFormat), format: writing.subtitleFormat, policy: policy,
                                stagingFolder: root)
        }
        return MovieReport.Product(byteCount: written.byteCount, sha256: written.sha256, tracks: written.tracks.map { track in
            // A timed-text track counts its cues, not the empty samples between them.
            MovieReport.Track(kind: track.media.isVideo ? .video : track.media.isAudio ? .audio : .subtitles, language: track.language,
                              samples: track.media.isVideo || track.media.isAudio ? track.samples.count : track.samples.count { $0.size > 2 })
        }, subtitles: subtitles.files)
    }

    /// The one subtitle track written to the destination, its cues on the playlist's timeline.
    private func finishSubtitles(in root: String) throws(HLSError) -> MovieReport.Product {
        guard let track = plan.tracks.first(where: { $0.info.role == .subtitles }) else { preconditionFailure("a subtitles plan has its track") }
        let (cues, bytes) = try subtitles.stage(try Self.localSegments(of: track, in: root), clock: nil, at: destination,
                                                format: writing.subtitleFormat, policy: policy, stagingFolder: root)
        let hasher: SHA256Hasher
        do { hasher = try SHA256Hasher() } catch { throw HLSError(.destinationUnwritable, "SHA-256 is unavailable: \(error).") }
        hasher.update(bytes)
        return MovieReport.Product(byteCount: UInt64(bytes.count), sha256: hasher.finalize(),
                                   tracks: [MovieReport.Track(kind: .subtitles, language: ISO639.terminology(fromBCP47: track.info.language), samples: cues)],
                                   subtitles: [])
    }

    /// Publishes the subtitle files, then the movie (the subtitles are withdrawn when the movie
    /// cannot be); the folder of segments goes.
    package func commit() throws(HLSError) {
        try subtitles.commit()
        guard let file else {
            precondition(writing.content == .subtitles, "a movie is committed after it is finished")
            package.settle(keeping: false)
            return
        }
        do { _ = try file.commit() } catch {
            subtitles.withdraw()
            throw HLSError(destination: error)
        }
        package.settle(keeping: false)
    }

    package func settle(keeping: Bool) {
        if !keeping { file?.discard() }
        subtitles.discard()
        package.settle(keeping: keeping)
    }

    /// The segments of `track` as its local playlist (the plan's) lists them, their files under
    /// `root`.
    /// - Throws: `invalid-playlist` when the local playlist does not read back.
    static func localSegments(of track: PackagePlan.Track, in root: String) throws(HLSError) -> [MovieMux.Segment] {
        let parsed: ParsedPlaylist
        do { parsed = try PlaylistParser().parse(Array(track.playlistText.utf8)) } catch {
            throw HLSError(.invalidPlaylist, "The local playlist of \(track.info.id) does not read back: \(error.message)", cause: error)
        }
        guard case .media(let playlist) = parsed.playlist else {
            throw HLSError(.invalidPlaylist, "The local playlist of \(track.info.id) reads back as a multivariant playlist.")
        }
        let folder = URL(fileURLWithPath: root + "/" + track.info.playlist).deletingLastPathComponent()
        func range(_ byteRange: PlaylistByteRange?) -> Range<UInt64>? { byteRange.map { $0.resolvedOffset..<($0.resolvedOffset + $0.length) } }
        return playlist.segments.map { segment in
            MovieMux.Segment(path: URL(fileURLWithPath: segment.uri, relativeTo: folder).standardizedFileURL.path, range: range(segment.byteRange),
                             run: Int(segment.discontinuitySequence), duration: segment.duration,
                             map: segment.map.map { MovieMux.Region(path: URL(fileURLWithPath: $0.uri, relativeTo: folder).standardizedFileURL.path,
                                                                           range: range($0.byteRange)) },
                             isGap: segment.isGap)
        }
    }

    /// The sources `MovieMux` reads: each track's local playlist as the plan wrote it, its
    /// segments' files under `root`, with what `muxed` takes of it.
    /// - Throws: `invalid-playlist` when a local playlist does not read back.
    static func sources(of plan: PackagePlan, in root: String, takesVariantAudio: Bool, audioOnly: Bool) throws(HLSError) -> [MovieMux.Source] {
        try muxed(plan, takesVariantAudio: takesVariantAudio, audioOnly: audioOnly).map { muxed throws(HLSError) in
            let segments = try localSegments(of: muxed.track, in: root)
            guard muxed.track.info.role == .audio else { return MovieMux.Source(segments: segments, kinds: muxed.kinds) }
            return MovieMux.Source(segments: segments, kinds: muxed.kinds, language: ISO639.terminology(fromBCP47: muxed.track.info.language),
                                   name: muxed.track.info.name, isEnabled: muxed.isFirstAudio)
        }
    }

    /// The tracks the file is muxed from and what each gives: the variant's stream its video, and
    /// its own audio when no audio rendition was chosen and `takesVariantAudio`; each audio
    /// rendition its audio (the first plays by default). `audioOnly` leaves the pictures out.
    static func muxed(_ plan: PackagePlan, takesVariantAudio: Bool, audioOnly: Bool)
        -> [(track: PackagePlan.Track, kinds: Set<ElementaryStreamReader.Kind>, isFirstAudio: Bool)] {
        let hasAudio = !takesVariantAudio || plan.tracks.contains { $0.info.role == .audio }
        var muxed: [(track: PackagePlan.Track, kinds: Set<ElementaryStreamReader.Kind>, isFirstAudio: Bool)] = []
        for track in plan.tracks {
            switch track.info.role {
            case .video:
                var kinds: Set<ElementaryStreamReader.Kind> = []
                if !audioOnly { kinds.insert(.video) }
                if !hasAudio { kinds.insert(.audio) }
                if !kinds.isEmpty { muxed.append((track, kinds, false)) }
            case .audio:
                muxed.append((track, [.audio], !muxed.contains { $0.kinds == [.audio] }))
            default:
                continue
            }
        }
        return muxed
    }
}

extension MovieReport {
    /// What the output gives the report.
    package struct Product {
        let byteCount: UInt64
        let sha256: SHA256Digest?
        let tracks: [Track]
        let subtitles: [URL]
    }
}
