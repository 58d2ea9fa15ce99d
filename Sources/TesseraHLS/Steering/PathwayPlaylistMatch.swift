import TesseraPlaylist

/// Whether another pathway's media playlist carries the same media as the planned one — the
/// same segments in order (count, media sequence, durations, byte ranges, discontinuities),
/// maps and keys (method, IV) — and, when it does, how each URI of the planned playlist is
/// written in the other one.
enum PathwayPlaylistMatch {
    /// The URI map (planned URI → the other playlist's URI), or why the playlists differ.
    static func map(planned: MediaPlaylist, other: MediaPlaylist) -> Result<[String: String], HLSError> {
        func mismatch(_ what: String) -> Result<[String: String], HLSError> {
            .failure(HLSError(.pathwayMismatch, "The playlist on the new pathway does not match the plan: \(what)."))
        }
        let a = planned.segments, b = other.segments
        guard a.count == b.count else { return mismatch("\(b.count) segments instead of \(a.count)") }
        guard a.first?.mediaSequence == b.first?.mediaSequence else { return mismatch("its first media sequence number differs") }
        var map: [String: String] = [:]
        func pair(_ from: String, _ to: String) -> Bool {
            if let known = map[from] { return known == to }
            map[from] = to
            return true
        }
        for index in a.indices {
            let (x, y) = (a[index], b[index])
            guard x.byteRange?.length == y.byteRange?.length, x.byteRange?.resolvedOffset == y.byteRange?.resolvedOffset else {
                return mismatch("segment \(index) has another byte range")
            }
            guard x.durationText == y.durationText, x.isDiscontinuity == y.isDiscontinuity, x.isGap == y.isGap else {
                return mismatch("segment \(index) has another duration, discontinuity or gap")
            }
            guard pair(x.uri, y.uri) else { return mismatch("segment \(index)'s resource is laid out differently") }
            switch (x.map, y.map) {
            case (nil, nil): break
            case (let m?, let n?):
                guard m.byteRange == n.byteRange, pair(m.uri, n.uri) else { return mismatch("segment \(index) has another map") }
            default: return mismatch("segment \(index) has a map on one pathway only")
            }
            let (xk, yk) = (x.keys, y.keys)
            guard xk.count == yk.count else { return mismatch("segment \(index) has other keys") }
            for (k, l) in zip(xk, yk) {
                guard k.method == l.method, k.iv == l.iv, k.keyFormat == l.keyFormat else { return mismatch("segment \(index) has another key") }
                if let u = k.uri, let v = l.uri, !pair(u, v) { return mismatch("segment \(index)'s key is laid out differently") }
            }
        }
        return .success(map)
    }
}
