import TesseraHTTP
import TesseraPlaylist

/// The resources of a media playlist in output order — the initialization section (when the
/// stream has one) then every segment — made on demand from the playlist: random access by
/// index, and a lazy run from any index, so no list of the plan is ever held.
package struct ResourceSequence: Sendable {
    let playlist: MediaPlaylist
    let stream: StreamIdentity
    let hasInitialization: Bool
    /// How far the planning pass has checked.
    private var checked = 0

    init(playlist: MediaPlaylist, stream: StreamIdentity, hasInitialization: Bool) {
        self.playlist = playlist
        self.stream = stream
        self.hasInitialization = hasInitialization
    }

    /// Resources in all.
    var count: Int { playlist.segments.count + (hasInitialization ? 1 : 0) }

    /// The resource at `index`.
    func resource(at index: Int) -> PlannedResource {
        if hasInitialization, index == 0, let first = playlist.segments.first, let map = first.map {
            return initialization(map, firstSequence: first.mediaSequence)
        }
        let position = index - (hasInitialization ? 1 : 0)
        return segment(at: position)
    }

    /// The resources from `index` on.
    func resources(from index: Int) -> Resources {
        Resources(sequence: self, next: index)
    }

    /// A lazy run of resources.
    struct Resources: Sequence, IteratorProtocol, Sendable {
        let sequence: ResourceSequence
        var position: Int

        init(sequence: ResourceSequence, next: Int) {
            self.sequence = sequence
            position = next
        }

        mutating func next() -> PlannedResource? {
            guard position < sequence.count else { return nil }
            defer { position += 1 }
            return sequence.resource(at: position)
        }
    }

    /// The next resource after checking it with `checker`, for the planning pass.
    mutating func nextChecked(_ checker: inout PlanChecker) throws(HLSError) -> PlannedResource? {
        guard checked < count else { return nil }
        defer { checked += 1 }
        if hasInitialization, checked == 0, let first = playlist.segments.first, let map = first.map {
            try checker.check(map: map)
            return initialization(map, firstSequence: first.mediaSequence)
        }
        let position = checked - (hasInitialization ? 1 : 0)
        try checker.check(playlist.segments[position], at: position)
        return segment(at: position)
    }

    private func segment(at position: Int) -> PlannedResource {
        let segment = playlist.segments[position]
        let previous = position > 0 ? playlist.segments[position - 1] : nil
        return .segment(segment, stream: stream, range: segment.byteRange.map(ByteRange.init),
                        startsDiscontinuity: previous.map { $0.discontinuitySequence != segment.discontinuitySequence } ?? false)
    }

    private func initialization(_ map: MediaInitializationSection, firstSequence: UInt64) -> PlannedResource {
        .initialization(map, stream: stream, mediaSequence: firstSequence, range: map.byteRange.map(ByteRange.init))
    }
}
