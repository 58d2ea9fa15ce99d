/// The init-segment checks of `MP4Validator`: brands, tracks, timescales, empty sample tables,
/// one `trex` per track.
extension MP4Validator {
    /// Brands that promise what HLS needs of fMP4 (RFC 8216 §3.3: iso6 or later, or CMAF).
    static let fragmentedBrands: Set<MP4BoxType> = [MP4BoxType("iso6"), MP4BoxType("iso7"), MP4BoxType("iso8"), MP4BoxType("iso9"),
                                                   MP4BoxType("cmfc"), MP4BoxType("cmf2")]

    mutating func ftyp(_ source: some MP4ByteSource, _ box: Box) {
        guard let payload = payload(source, box), payload.count >= 8 else { return }
        var brands = [MP4BoxType(rawValue: BigEndian.uint32(payload, 0))]
        var index = 8
        while index + 4 <= payload.count {
            brands.append(MP4BoxType(rawValue: BigEndian.uint32(payload, index)))
            index += 4
        }
        self.brands = (brands, box.offset)
    }

    mutating func moov(_ payload: [UInt8], at offset: UInt64) {
        sawInit = true
        var trackIDs: [UInt32] = []
        var trexIDs: [UInt32] = []
        let boxes = children(payload, base: offset + 8)
        isProgressive = !boxes.contains { $0.type == .mvex }
        for child in boxes {
            switch child.type {
            case .trak:
                guard let id = trak(child.payload, at: child.offset) else { continue }
                if id == 0 || trackIDs.contains(id) {
                    report("mp4-track-id", .error, at: child.offset, "Track ID \(id) is zero or repeated.")
                }
                trackIDs.append(id)
            case .mvex:
                for trex in children(child.payload, base: child.offset) where trex.type == .trex && trex.payload.count >= 24 {
                    let id = BigEndian.uint32(trex.payload, 4)
                    trexIDs.append(id)
                    tracks[id, default: Track()].hasTrex = true
                    tracks[id]?.defaultDuration = BigEndian.uint32(trex.payload, 12)
                    tracks[id]?.defaultSize = BigEndian.uint32(trex.payload, 16)
                }
            default: break
            }
        }
        if trackIDs.isEmpty {
            report("mp4-no-tracks", .error, at: offset, "The moov holds no trak.")
        }
        for id in trackIDs where !trexIDs.contains(id) && !isProgressive {
            report("mp4-missing-trex", .error, at: offset, "Track \(id) has no trex in an mvex, so its fragments cannot be read.")
        }
    }

    /// Checks one trak; returns its track ID.
    mutating func trak(_ payload: [UInt8], at offset: UInt64) -> UInt32? {
        var id: UInt32?
        var timescale: UInt32?
        var sampleCount: UInt64 = 0
        var table: (boxes: [(type: MP4BoxType, payload: [UInt8], offset: UInt64)], offset: UInt64)?
        func walk(_ boxes: [(type: MP4BoxType, payload: [UInt8], offset: UInt64)], _ validator: inout MP4Validator) {
            for box in boxes {
                let p = box.payload
                switch box.type {
                case .tkhd where p.count >= 24: id = BigEndian.uint32(p, p[0] == 1 ? 20 : 12)
                case .mdhd where p.count >= 24: timescale = BigEndian.uint32(p, p[0] == 1 ? 20 : 12)
                case .stbl:
                    let children = validator.children(p, base: box.offset)
                    table = (children, box.offset)
                    walk(children, &validator)
                case .mdia, .minf: walk(validator.children(p, base: box.offset), &validator)
                case .stts, .stco, .stsc, .co64:
                    if p.count >= 8 { sampleCount += UInt64(BigEndian.uint32(p, 4)) }
                case .stsz where p.count >= 12: sampleCount += UInt64(BigEndian.uint32(p, 8))
                default: break
                }
            }
        }
        walk(children(payload, base: offset), &self)
        guard let id else {
            report("mp4-track-id", .error, at: offset, "A trak has no tkhd.")
            return nil
        }
        if timescale ?? 0 == 0 {
            report("mp4-timescale", .error, at: offset, "Track \(id) has no media timescale (mdhd).")
        }
        if isProgressive {
            if let table, let chunks = progressiveTrack(table.boxes, track: id, at: table.offset) { progressiveChunks[id] = chunks }
        } else if sampleCount > 0 {
            report("mp4-samples-in-moov", .error, at: offset, "Track \(id) lists samples in its stbl; an fMP4 init must list none (RFC 8216 §3.3).")
        }
        tracks[id, default: Track()].timescale = timescale ?? 0
        return id
    }
}
