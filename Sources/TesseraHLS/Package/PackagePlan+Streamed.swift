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
        var plan = self
        try plan.stream(muxing: muxed)
        return plan
    }

    /// Makes this plan `streamed(muxing:)`'s, in place: the package's order of the muxed tracks'
    /// resources is let go before the movie's is made (a plan held uniquely then never holds both:
    /// 76 MB each at 500,000 segments).
    /// - Throws: `destination-unwritable` when SHA-256 is unavailable.
    mutating func stream(muxing muxed: Set<StreamIdentity>) throws(HLSError) {
        let others = resources.filter { !muxed.contains($0.identity.stream) }
        resources = []
        // Each track's resources come in the order of their starts, so merging them by start (the
        // earlier track first at equal starts) orders them as a stable sort by (start, track)
        // would — without holding every resource twice more to sort it.
        let muxedTracks = tracks.filter { muxed.contains($0.stream) }
        var cursors = muxedTracks.map { StreamedTrackResources($0.playlist, stream: $0.stream) }
        var heads = cursors.indices.map { cursors[$0].next() }
        var ordered: [PlannedResource] = []
        ordered.reserveCapacity(muxedTracks.reduce(0) { $0 + $1.playlist.segments.count })
        while true {
            var earliest: (index: Int, start: Double)?
            for (index, head) in heads.enumerated() {
                if let head, earliest.map({ head.start < $0.start }) ?? true { earliest = (index, head.start) }
            }
            guard let earliest, let head = heads[earliest.index] else { break }
            ordered.append(head.resource)
            heads[earliest.index] = cursors[earliest.index].next()
        }
        ordered += others
        resources = ordered
        var hasher: PlanFingerprint
        // 3: the body's records check it with CRC-32C (2: SHA-256), a checkpoint of another version is discarded.
        do { hasher = try PlanFingerprint(header: "tessera-streamed-movie 3\n") } catch {
            throw HLSError(.destinationUnwritable, "SHA-256 is unavailable: \(error).")
        }
        hasher.add(fingerprint.hex + "\n")
        (knownBytes, largestRange) = Self.add(resources, to: &hasher)
        fingerprint = hasher.finalize()
    }
}
