import TesseraMedia

/// One track's sample bytes in decode order, read again from its source's segments (the
/// second pass of `MovieMux`): a segment at a time, each sample let go once handed over.
struct SampleStream {
    let key: MovieMux.TrackKey
    let source: MovieMux.Source
    private var reader: ElementaryStreamReader
    private var segment = 0
    private var pending: [[UInt8]] = []
    private var inits: [MovieMux.Region: FragmentedMP4Init] = [:]
    private var position = 0

    init(key: MovieMux.TrackKey, source: MovieMux.Source) {
        self.key = key
        self.source = source
        reader = ElementaryStreamReader(kinds: [key.kind])
    }

    /// The next sample's bytes, which the first pass found to be `size` bytes.
    /// - Throws: `source-changed` when the segments hold fewer samples than the first pass read,
    ///   or this one reads at another size.
    mutating func next(size: UInt32) throws(HLSError) -> [UInt8] {
        while position == pending.count {
            guard segment < source.segments.count else {
                throw HLSError(.sourceChanged, "The staged segments hold fewer samples the second time they are read.")
            }
            pending = []   // the last segment's samples go before the next is read
            pending = source.segments[segment].isGap ? [] : try MovieMux.units(of: source.segments[segment], reader: &reader, inits: &inits).map(\.unit.data)
            position = 0
            segment += 1
        }
        // Handed over, not kept: a segment's samples leave memory as they are written.
        let data = pending[position]
        pending[position] = []
        position += 1
        guard UInt32(data.count) == size else {
            throw HLSError(.sourceChanged, "A segment read differently the second time (a sample of \(size) bytes in segment \(segment) of its track has \(data.count)).")
        }
        return data
    }
}
