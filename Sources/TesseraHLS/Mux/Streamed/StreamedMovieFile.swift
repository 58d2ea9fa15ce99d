#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// A streamed movie's file made whole once the transfer is done: the header (`ftyp`, `moov` over
/// the body's chunks, a `free` box to whole filesystem blocks, the `mdat` header) put in front of
/// the body file without copying it where the filesystem inserts (`DurableFile.insertAtFront`),
/// else written to a new file with the body copied after it; read once for its SHA-256 when asked.
enum StreamedMovieFile {
    /// The whole file (staged, not published) with what the report needs of it.
    struct Made {
        let file: StagingFile
        let byteCount: UInt64
        let sha256: SHA256Digest?
        let tracks: [MP4Track]
        let clock: MovieClock
    }

    /// Makes the file of `streamer`'s body, in `root` (the staging folder) beside `destination`,
    /// with its SHA-256 when `digest`.
    /// - Throws: `malformed-media` when the body does not hold the chunks; `destination-unwritable`.
    static func make(_ streamer: MovieStreamer, root: String, destination: URL, policy: OverwritePolicy,
                     digest: Bool) throws(HLSError) -> Made {
        let (result, chunks) = try streamer.finish()
        let body: StagingFile
        do { body = try StagingFile(destination: destination, policy: policy, resumableAt: root + "/" + streamer.body.value) } catch {
            throw HLSError(destination: error)
        }
        guard body.size == streamer.length else {
            throw HLSError(.malformedMedia, "The streamed movie's body holds \(body.size) bytes where its chunks hold \(streamer.length).")
        }
        let block = max(1, body.filesystemBlock)
        let header = streamer.fragmented ? try fragments(chunks, of: result.tracks, in: body, block: block) : try MovieMux.media(at: "the movie") {
            () throws(MediaError) in
            try ProgressiveMP4(tracks: result.tracks).layout(chunks: chunks.map { ProgressiveMP4.Chunk(track: $0.track, samples: $0.samples, byteCount: $0.byteCount) },
                                                             headerMultiple: block).header
        }
        // The file's SHA-256 from the header and the body as they lie now, before the header goes
        // in front (where the filesystem inserts, that flushes the body's last dirty pages).
        let sha256 = digest ? try Self.digest(of: header, then: body, count: streamer.length) : nil
        let file: StagingFile
        do {
            if try body.insertAtFront(header) {
                file = body
            } else {
                file = try StagingFile(destination: destination, policy: policy, resumableAt: root + "/.movie.mp4")
                try file.truncate()
                try file.append(header)
                try copy(body, to: file)
            }
        } catch {
            throw HLSError(destination: error)
        }
        return Made(file: file, byteCount: UInt64(header.count) + streamer.length, sha256: sha256, tracks: result.tracks, clock: result.clock)
    }

    /// Writes each chunk's `moof` and `mdat` header into the room the body kept before its
    /// samples (movie fragment 1, 2, … in body order); returns what goes in front: `ftyp`, the
    /// `moov` with its `mvex`, and a `free` box to whole blocks.
    /// - Throws: `unsupported` for audio whose configuration changes (ffmpeg keeps a fragmented
    ///   track's first); `destination-unwritable`.
    private static func fragments(_ chunks: [MovieStreamer.Chunk], of tracks: [MP4Track], in body: DurableFile, block: Int) throws(HLSError) -> [UInt8] {
        if let changing = tracks.first(where: { $0.media.isAudio && $0.descriptions.count > 1 }) {
            throw HLSError(.unsupported, "The \(changing.media.family) audio changes its codec parameters at a discontinuity (\(changing.descriptions.count) configurations), "
                           + "which a fragmented MP4 does not carry so that ffmpeg decodes it; the progressive MP4 (without --fragmented) does.")
        }
        let layout = FragmentedMP4(tracks: tracks)
        for (index, chunk) in chunks.enumerated() {
            let fragment = layout.fragment(ProgressiveMP4.Chunk(track: chunk.track, samples: chunk.samples, byteCount: chunk.byteCount), sequence: UInt32(index + 1))
            guard fragment.count == chunk.headerBytes else {
                throw HLSError(.malformedMedia, "A movie fragment's header came out \(fragment.count) bytes where \(chunk.headerBytes) were kept.")
            }
            do { try body.write(fragment, at: chunk.offset) } catch { throw HLSError(destination: error) }
        }
        return layout.header(multiple: block)
    }

    /// Appends what `source` holds to `target`, 4 MiB at a time.
    private static func copy(_ source: DurableFile, to target: DurableFile) throws(SupportError) {
        var offset: UInt64 = 0
        let size = source.size
        while offset < size {
            guard let chunk = source.read(at: offset, count: Int(min(UInt64(MovieFileSink.chunkBytes), size - offset))), !chunk.isEmpty else {
                throw SupportError(.destinationUnwritable, "\(source.path) could not be read back at byte \(offset).")
            }
            try target.append(chunk)
            offset += UInt64(chunk.count)
        }
    }

    /// The SHA-256 of `header` followed by the first `count` bytes of `body`, read 4 MiB at a
    /// time, each read beside the hashing of the one before it.
    private static func digest(of header: [UInt8], then body: DurableFile, count: UInt64) throws(HLSError) -> SHA256Digest {
        let hasher: SHA256Hasher
        do { hasher = try SHA256Hasher() } catch { throw HLSError(.destinationUnwritable, "SHA-256 is unavailable: \(error).") }
        hasher.update(header)
        func read(at offset: UInt64) throws(HLSError) -> [UInt8] {
            guard offset < count else { return [] }
            let size = Int(min(UInt64(MovieFileSink.chunkBytes), count - offset))
            guard let chunk = body.read(at: offset, count: size), chunk.count == size else {
                throw HLSError(.destinationUnwritable, "The streamed movie's body \(body.path) could not be read back at byte \(offset).")
            }
            return chunk
        }
        var current = try read(at: 0)
        var offset = UInt64(current.count)
        while !current.isEmpty {
            var next: [UInt8] = []
            try SideBySide.run(bytes: current.count, { () throws(HLSError) in hasher.update(current) }, { () throws(HLSError) in next = try read(at: offset) })
            offset += UInt64(next.count)
            current = next
        }
        return hasher.finalize()
    }
}
