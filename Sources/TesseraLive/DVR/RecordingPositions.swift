import TesseraPlaylist

/// Where one track's segments start on the recording's common timeline (seconds), so that a
/// rendition is recorded aligned with the primary — by PROGRAM-DATE-TIME when both have it, else
/// by discontinuity sequence plus accumulated EXTINF: within a discontinuity domain whose first
/// segment both tracks listed, from that segment; for the domain in progress when a track was
/// first seen, from the live edge the primary held then. Never by media sequence number alone:
/// those are per playlist. Each observed playlist is placed against what was known before (a
/// segment listed again, else the newest one seen and a target duration for each segment
/// between), so positions carry on across reloads, outages and a resume. A pure value.
struct RecordingPositions: Sendable {
    /// How positions are found.
    enum Mode: String, Sendable, Equatable {
        /// PROGRAM-DATE-TIME (seconds since 1970), segments without one placed after the one before.
        case dates = "program-date-time"
        /// Accumulated EXTINF from an anchor.
        case accumulated = "extinf"
    }

    /// Where a playlist with nothing known in common is placed.
    enum Anchor: Sendable, Equatable {
        /// Its last segment ends here (the live edge).
        case edge(Double)
        /// Segment `msn` starts here.
        case segment(UInt64, Double)
    }

    let mode: Mode
    /// The start of each segment of the last playlist observed.
    private(set) var starts: [UInt64: Double] = [:]
    /// The newest segment seen: its number, start and duration.
    private(set) var newest: (msn: UInt64, start: Double, duration: Double)?
    /// Where each discontinuity domain whose first segment was listed begins.
    private(set) var domainStarts: [UInt64: Double] = [:]

    init(mode: Mode) { self.mode = mode }

    /// Positions that go on after a restored segment `msn` starting at `start`, `duration` long.
    init(mode: Mode, restoring msn: UInt64, start: Double, duration: Double) {
        self.mode = mode
        newest = (msn, start, duration)
        starts[msn] = start
    }

    /// The end of the newest segment seen (the live edge as last observed).
    var edge: Double? { newest.map { $0.start + $0.duration } }

    /// The start of segment `msn` of the last playlist observed.
    func start(of msn: UInt64) -> Double? { starts[msn] }

    /// Places `playlist`'s segments: against what is known, else at `anchor`; a segment that
    /// begins a discontinuity domain found in `domains` starts where it says (a rendition's
    /// domains placed where the primary's begin).
    mutating func observe(_ playlist: MediaPlaylist, anchor: Anchor, domains: [UInt64: Double] = [:]) {
        let segments = playlist.segments
        guard !segments.isEmpty else { return }
        var placed = [Double](repeating: 0, count: segments.count)
        let datesKnown = mode == .dates && segments.contains { $0.programDateTime != nil }
        if datesKnown {
            // From the first dated segment forward (undated ones after the one before), then back.
            let first = segments.firstIndex { $0.programDateTime != nil }!
            for index in first..<segments.count {
                placed[index] = segments[index].programDateTime?.secondsSince1970 ?? placed[index - 1] + segments[index - 1].duration
            }
            for index in stride(from: first - 1, through: 0, by: -1) { placed[index] = placed[index + 1] - segments[index].duration }
        } else {
            let (base, start) = base(of: segments, target: Double(playlist.targetDuration ?? 6), anchor: anchor)
            placed[base] = start
            for index in (base + 1)..<max(base + 1, segments.count) {
                let segment = segments[index]
                placed[index] = segment.isDiscontinuity ? domains[segment.discontinuitySequence] ?? placed[index - 1] + segments[index - 1].duration
                                                         : placed[index - 1] + segments[index - 1].duration
            }
            for index in stride(from: base - 1, through: 0, by: -1) { placed[index] = placed[index + 1] - segments[index].duration }
        }
        starts = [:]
        starts.reserveCapacity(segments.count)
        for (segment, start) in zip(segments, placed) {
            starts[segment.mediaSequence] = start
            if segment.isDiscontinuity, domainStarts[segment.discontinuitySequence] == nil { domainStarts[segment.discontinuitySequence] = start }
        }
        if newest.map({ $0.msn <= segments.last!.mediaSequence }) ?? true {
            newest = (segments.last!.mediaSequence, placed[segments.count - 1], segments.last!.duration)
        }
    }

    /// The segment of `segments` placed from what is known, and its start: one listed before,
    /// else the first after the newest seen (a target duration for each one never listed), else
    /// per `anchor`.
    private func base(of segments: MediaSegments, target: Double, anchor: Anchor) -> (Int, Double) {
        if let index = segments.firstIndex(where: { starts[$0.mediaSequence] != nil }) {
            return (index, starts[segments[index].mediaSequence]!)
        }
        if let newest, let first = segments.first, first.mediaSequence > newest.msn {
            return (0, newest.start + newest.duration + Double(first.mediaSequence - newest.msn - 1) * target)
        }
        switch anchor {
        case .edge(let edge):
            return (segments.count - 1, edge - segments[segments.count - 1].duration)
        case .segment(let msn, let start):
            if let index = segments.firstIndex(where: { $0.mediaSequence == msn }) { return (index, start) }
            return (segments.count - 1, start - segments[segments.count - 1].duration)
        }
    }
}
