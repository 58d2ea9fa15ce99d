import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

extension PackagePlan {
    /// The plan as a streamed movie fetches it (docs/DOWNLOAD.md): the media of the tracks
    /// of `muxed` as one resource per segment — a segment listed twice (an ad slate) fetched twice,
    /// a byte range of a single file its own resource, no unlisted bytes — and each initialization
    /// section before the first segment that uses it, ordered by where the segments start on the
    /// tracks' EXTINF timelines (then by track), so that the file's body comes interleaved; then
    /// the other tracks' resources as planned. Its fingerprint is its own: a checkpoint of the
    /// package plan is not one of this (and the version moves with `StreamedPayload`'s format).
    /// - Throws: `destination-unwritable` when SHA-256 is unavailable.
    func streamed(muxing muxed: Set<StreamIdentity>) throws(HLSError) -> PackagePlan {
        var timed: [(start: Double, track: Int, resource: PlannedResource)] = []
        for (index, track) in tracks.enumerated() where muxed.contains(track.stream) {
            var start = 0.0
            var lastMap: MediaInitializationSection?
            var lastRun: UInt64?
            for segment in track.playlist.segments {
                defer { start += segment.duration }
                if let map = segment.map, map.uri != lastMap?.uri || map.byteRange != lastMap?.byteRange {
                    lastMap = map
                    timed.append((start, index, .initialization(map, stream: track.stream, mediaSequence: segment.mediaSequence,
                                                                range: map.byteRange.map(ByteRange.init))))
                }
                guard !segment.isGap else { continue }
                let discontinuity = lastRun.map { $0 != segment.discontinuitySequence } ?? false
                lastRun = segment.discontinuitySequence
                timed.append((start, index, .segment(segment, stream: track.stream, range: segment.byteRange.map(ByteRange.init),
                                                     startsDiscontinuity: discontinuity)))
            }
        }
        // Stable: a track's own resources keep their order at equal starts.
        let ordered = timed.enumerated().sorted { a, b in
            (a.element.start, a.element.track, a.offset) < (b.element.start, b.element.track, b.offset)
        }.map(\.element.resource)
        var plan = self
        plan.resources = ordered + resources.filter { !muxed.contains($0.identity.stream) }
        var hasher: PlanFingerprint
        // 3: the body's records check it with CRC-32C (2: SHA-256), a checkpoint of another version is discarded.
        do { hasher = try PlanFingerprint(header: "tessera-streamed-movie 3\n") } catch {
            throw HLSError(.destinationUnwritable, "SHA-256 is unavailable: \(error).")
        }
        hasher.add(fingerprint.hex + "\n")
        let (known, largest) = Self.add(plan.resources, to: &hasher)
        plan.fingerprint = hasher.finalize()
        plan.knownBytes = known
        plan.largestRange = largest
        return plan
    }
}
