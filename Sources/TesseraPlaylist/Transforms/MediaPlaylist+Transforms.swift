/// Value transformations a packager, a live merger or a DVR snapshot needs; each returns a new
/// playlist the writer writes back with the round trip intact.
extension MediaPlaylist {
    /// The playlist with every URI — segments, maps, keys, parts, preload hints, rendition
    /// reports and interstitial assets — replaced by `transform` of the URI and its role, once per
    /// map and key run: consecutive segments with equal maps or keys share the rewritten ones.
    /// - Throws: whatever `transform` throws.
    /// - Complexity: O(n) in the number of elements.
    public func rewritingURIs<Failure: Error>(_ transform: (String, PlaylistURIRole) throws(Failure) -> String) throws(Failure) -> MediaPlaylist {
        var result = self
        var lastMap: (original: SharedValue<MediaInitializationSection>, rewritten: SharedValue<MediaInitializationSection>)?
        var lastKeys: (original: [SegmentKey], rewritten: [SegmentKey])?
        func keys(_ original: [SegmentKey]) throws(Failure) -> [SegmentKey] {
            if let lastKeys, lastKeys.original == original { return lastKeys.rewritten }
            var rewritten = original
            for index in rewritten.indices {
                if let uri = rewritten[index].uri { rewritten[index].uri = try transform(uri, .key) }
            }
            lastKeys = (original, rewritten)
            return rewritten
        }
        // Segments of one run share their extras box: rewrite it once and share the result.
        var lastExtras: (original: SharedValue<SegmentExtras>, rewritten: SharedValue<SegmentExtras>)?
        for index in result.segments.indices {
            var segment = result.segments[index]
            segment.uri = try transform(segment.uri, .segment)
            if let box = segment.extras {
                if let lastExtras, lastExtras.original === box {
                    segment.extras = lastExtras.rewritten
                } else {
                    var extras = box.value
                    extras.keys = try keys(extras.keys)
                    if let mapBox = extras.mapBox {
                        if let lastMap, lastMap.original == mapBox {    // the same box, or an equal map
                            extras.mapBox = lastMap.rewritten
                        } else {
                            var map = mapBox.value
                            map.uri = try transform(map.uri, .map)
                            map.keys = try keys(map.keys)
                            let rewritten = SharedValue(map)
                            lastMap = (mapBox, rewritten)
                            extras.mapBox = rewritten
                        }
                    }
                    if !extras.parts.isEmpty { extras.parts = try Self.rewriting(extras.parts, transform) }
                    let rewritten = SharedValue(extras)
                    lastExtras = (box, rewritten)
                    segment.extras = rewritten
                }
            }
            result.segments[index] = segment
        }
        result.pendingParts = try Self.rewriting(pendingParts, transform)
        for index in result.preloadHints.indices {
            result.preloadHints[index].uri = try transform(result.preloadHints[index].uri, .preloadHint)
        }
        for index in result.renditionReports.indices {
            if let uri = result.renditionReports[index].uri { result.renditionReports[index].uri = try transform(uri, .renditionReport) }
        }
        for index in result.dateRanges.indices {
            result.dateRanges[index] = try result.dateRanges[index].rewritingAssetURIs(transform)
        }
        return result
    }

    private static func rewriting<Failure: Error>(_ parts: [PartialSegment],
                                                  _ transform: (String, PlaylistURIRole) throws(Failure) -> String) throws(Failure) -> [PartialSegment] {
        var parts = parts
        for index in parts.indices { parts[index].uri = try transform(parts[index].uri, .part) }
        return parts
    }

    /// The playlist without any EXT-X-KEY: every segment and map in the clear (what a package of
    /// decrypted media declares).
    /// - Complexity: O(n) in the number of segments.
    public func removingKeys() -> MediaPlaylist {
        var result = self
        var maps: [ObjectIdentifier: SharedValue<MediaInitializationSection>] = [:]
        var lastExtras: (original: SharedValue<SegmentExtras>, clear: SharedValue<SegmentExtras>?)?
        for index in result.segments.indices {
            guard let box = result.segments[index].extras,
                  !box.value.keys.isEmpty || !(box.value.mapBox?.value.keys.isEmpty ?? true) else { continue }
            if let lastExtras, lastExtras.original === box {
                result.segments[index].extras = lastExtras.clear
                continue
            }
            var extras = box.value
            extras.keys = []
            if let mapBox = extras.mapBox, !mapBox.value.keys.isEmpty {
                if let done = maps[ObjectIdentifier(mapBox)] {
                    extras.mapBox = done
                } else {
                    var map = mapBox.value
                    map.keys = []
                    let clear = SharedValue(map)
                    maps[ObjectIdentifier(mapBox)] = clear
                    extras.mapBox = clear
                }
            }
            let clear = extras.isEmpty ? nil : SharedValue(extras)
            lastExtras = (box, clear)
            result.segments[index].extras = clear
        }
        return result
    }

    /// The playlist with `segments` appended: they must continue its media sequence (the first
    /// one's number follows the last segment's, or is the playlist's media sequence when it has
    /// none) and each the one before. A map equal to the previous segment's is shared with it.
    /// - Throws: `malformed-tag` naming the first segment out of sequence.
    /// - Complexity: O(m) in the segments appended.
    public func appending(_ segments: [MediaSegment]) throws(PlaylistError) -> MediaPlaylist {
        var result = self
        var next = self.segments.last.map { $0.mediaSequence &+ 1 } ?? mediaSequence
        result.segments.reserveCapacity(self.segments.count + segments.count)
        for segment in segments {
            guard segment.mediaSequence == next else {
                throw PlaylistError(.malformedTag, "Segment \(segment.mediaSequence) cannot follow segment \(next &- 1): media sequence numbers must continue.")
            }
            var segment = segment
            if let previous = result.segments.last?.extras, let box = segment.extras, previous !== box {
                if previous.value.isShareable, previous == box {
                    segment.extras = previous    // equal keys, map and bitrate are shared, not stored again
                } else if let previousMap = previous.value.mapBox, let map = box.value.mapBox, previousMap !== map, previousMap == map {
                    segment.mapBox = previousMap
                }
            }
            result.segments.append(segment)
            next &+= 1
        }
        return result
    }

    /// The playlist without EXT-X-DEFINE (values are already substituted; see
    /// `Playlist.removingDefines()`).
    /// - Throws: `undefined-variable` when a substituted value holds a variable reference.
    public func removingDefines() throws(PlaylistError) -> MediaPlaylist {
        guard !defines.isEmpty else { return self }
        var result = self
        result.defines = []
        try Playlist.media(result).checkStandsAlone()
        return result
    }
}

extension DateRange {
    /// The Date Range with its interstitial asset URIs replaced by `transform`.
    func rewritingAssetURIs<Failure: Error>(_ transform: (String, PlaylistURIRole) throws(Failure) -> String) throws(Failure) -> DateRange {
        var result = self
        for index in result.clientAttributes.indices {
            let attribute = result.clientAttributes[index]
            guard PlaylistURIRole.interstitialAttributes.contains(attribute.name), case .string(let uri) = attribute.value else { continue }
            result.clientAttributes[index].value = .string(try transform(uri, .interstitialAsset(attribute: attribute.name)))
        }
        return result
    }
}
