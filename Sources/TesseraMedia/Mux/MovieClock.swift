/// Where the timestamps of each discontinuity run land on a muxed movie's clock: the run's
/// reference timestamp (33-bit and as unwrapped) and the offset that moved the run into place.
/// What subtitles (their X-TIMESTAMP-MAP) and any other timed side data are placed by.
public struct MovieClock: Sendable {
    let references: [Int32: (raw: UInt64, value: Int64)]
    let offsets: [Int32: Int64]

    /// The movie time (90 kHz ticks, 0 the movie's start) of the 33-bit `timestamp` in `run`,
    /// or nil when no media of that run was muxed.
    public func movieTime(of timestamp: UInt64, run: Int) -> Int64? {
        guard let reference = references[Int32(clamping: run)], let offset = offsets[Int32(clamping: run)] else { return nil }
        return reference.value + MPEGTimestamp.difference(timestamp & MPEGTimestamp.mask, reference.raw) + offset
    }
}
