/// Validates an MP4 file: a progressive one (a `moov` listing its samples, their bytes in `mdat`;
/// MP4Validator+Progressive) or a fragmented one — an init segment, a media segment, or both in
/// one file (ISO/IEC 14496-12, RFC 8216 §3.3): box bounds (64-bit and to-end sizes, children inside their
/// parent), `ftyp` brands, the init (`moov` with unique track IDs, timescales, no samples in
/// `stbl`, `mvex` with a `trex` per track), and each fragment (`moof` followed by its `mdat`,
/// `mfhd` sequence increasing, known `tfhd` track IDs, `tfdt` present and contiguous with the
/// previous fragment's durations, `trun` data inside the `mdat` payload, sample sizes adding up
/// to it), and each `sidx` (references spanning whole boxes in the file, durations matching the
/// fragments; MP4Validator+Index). Reads box headers and the `moov`/`moof`/`sidx` boxes only, so
/// memory stays small.
public struct MP4Validator {
    /// The most findings kept per ID.
    public static let maximumPerID = 20
    /// The largest `moov` or `moof` parsed.
    public static let maximumParsedBoxBytes = 16 << 20

    struct Track {
        var timescale: UInt32 = 0
        var defaultDuration: UInt32?
        var defaultSize: UInt32?
        var hasTrex = false
    }

    /// One `trun`'s bytes and one `traf`'s time, from a `moof` waiting for its `mdat`.
    private struct Fragment {
        var offset: UInt64
        var runs: [(start: UInt64, length: UInt64)] = []
        var sizesKnown = true
    }

    private var log = FindingLog(maximumPerID: MP4Validator.maximumPerID)
    var tracks: [UInt32: Track] = [:]
    var sawInit = false
    private var lastSequence: UInt32?
    private var nextDecodeTime: [UInt32: UInt64] = [:]
    /// For the sidx checks: every parsed segment index, the top-level boxes by offset, and the
    /// durations of each fragment (by its moof's offset) per track.
    var segmentIndexes: [SegmentIndex] = []
    var topLevelBoxes: [UInt64: (type: MP4BoxType, end: UInt64)] = [:]
    var fragmentDurations: [UInt64: [UInt32: UInt64]] = [:]
    /// Whether the moov lists its samples without mvex: a progressive MP4.
    var isProgressive = false
    /// A progressive file's chunks per track, and its mdat payloads.
    var progressiveChunks: [UInt32: ProgressiveChunks] = [:]
    private var mediaData: [(start: UInt64, end: UInt64)] = []
    /// The ftyp's brands and where it is, judged once the file is known to be fragmented.
    var brands: (list: [MP4BoxType], offset: UInt64)?

    /// A validator.
    public init() {}

    /// Findings beyond the cap, counted per ID.
    public var suppressed: [String: Int] { log.suppressed }

    /// Validates the whole of `source` and returns the findings in file order.
    public mutating func validate(_ source: some MP4ByteSource) -> [MediaFinding] {
        var offset: UInt64 = 0
        var index = 0
        var pending: Fragment?
        var stopped = false
        while offset < source.size {
            guard let box = header(source, at: offset, limit: source.size, isTopLevel: true) else {
                stopped = true   // the broken box explains whatever follows
                break
            }
            rememberTopLevel(box)
            switch box.type {
            case .ftyp: ftyp(source, box)
            case .sidx: if let payload = payload(source, box) { sidx(payload, box: box) }
            case .moov: if let payload = payload(source, box) { moov(payload, at: box.offset) }
            case .moof:
                if let waiting = pending {
                    report("mp4-moof-without-mdat", .error, at: waiting.offset, "A moof is not followed by its mdat.")
                }
                pending = payload(source, box).map { moof($0, box: box) }
            case .mdat:
                if let fragment = pending {
                    mdat(box, fragment)
                    pending = nil
                } else if isProgressive {
                    mediaData.append((box.offset + box.headerSize, box.end))
                } else {
                    report("mp4-mdat-without-moof", .error, at: box.offset, "An mdat does not follow a moof: this is not a fragmented MP4.")
                }
            default: break
            }
            if index == 0, box.type != .ftyp, !MP4BoxType.segmentStarts.contains(box.type) {
                report("mp4-first-box", .error, at: 0, "The file starts with a '\(box.type)' box; an init starts with ftyp, a segment with styp, sidx or moof.")
            }
            index += 1
            offset += box.size
        }
        if let waiting = pending, !stopped {
            report("mp4-moof-without-mdat", .error, at: waiting.offset, "The last moof is not followed by its mdat.")
        }
        if source.size == 0 {
            report("mp4-empty", .error, at: 0, "The file holds no box.")
        }
        if !stopped { checkIndexes(fileSize: source.size) }
        if isProgressive, !stopped { checkProgressiveChunks(mediaData: mediaData) }
        if !isProgressive, let brands, !brands.list.contains(where: Self.fragmentedBrands.contains) {
            report("mp4-brand", .warning, at: brands.offset, "No brand of iso6 or later (RFC 8216 §3.3) among \(brands.list.map(\.description).joined(separator: ", ")).")
        }
        return log.findings
    }

    // MARK: Boxes

    typealias Box = MP4BoxHeader

    /// The header of the box at `offset`, checked to fit before `limit`; nil (and a finding) when
    /// it does not.
    private mutating func header(_ source: some MP4ByteSource, at offset: UInt64, limit: UInt64, isTopLevel: Bool) -> Box? {
        do {
            return try MP4BoxHeader.read(source, at: offset, limit: limit, sizeToEnd: isTopLevel)
        } catch {
            let type = MP4BoxType(rawValue: source.read(at: offset + 4, count: 4).count == 4
                ? BigEndian.uint32(source.read(at: offset + 4, count: 4), 0) : 0)
            switch error {
            case .truncated(let remaining):
                report("mp4-box-truncated", .error, at: offset, "\(remaining) bytes remain where a box header (8 bytes) was expected.")
            case .truncatedExtension:
                report("mp4-box-truncated", .error, at: offset, "The '\(type)' box's 64-bit size or usertype is cut off.")
            case .sizeToEndInside:
                report("mp4-box-size", .error, at: offset, "The '\(type)' box uses size 0 (to the end of the file) inside another box.")
            case .sizeBelowHeader(let size):
                report("mp4-box-size", .error, at: offset, "The '\(type)' box claims \(size) bytes, less than its own header.")
            case .pastLimit(let size, let remaining):
                report("mp4-box-truncated", .error, at: offset,
                       "The '\(type)' box claims \(size) bytes but only \(remaining) remain\(isTopLevel ? " in the file" : " in its parent").")
            }
            return nil
        }
    }

    /// The payload of a box small enough to parse.
    mutating func payload(_ source: some MP4ByteSource, _ box: Box) -> [UInt8]? {
        guard box.size <= UInt64(Self.maximumParsedBoxBytes) else {
            report("mp4-box-too-large", .error, at: box.offset, "The '\(box.type)' box is \(box.size) bytes; at most \(Self.maximumParsedBoxBytes) are parsed.")
            return nil
        }
        return Array(source.read(at: box.payloadOffset, count: Int(box.payloadSize)))
    }

    /// The child boxes of `payload` (which starts at file offset `base`), bounds-checked; `skip`
    /// bytes of the payload come before them (a full box's version and flags, for example).
    mutating func children(_ payload: [UInt8], base: UInt64, skip: Int = 0) -> [(type: MP4BoxType, payload: [UInt8], offset: UInt64)] {
        let (boxes, defect) = MP4BoxHeader.boxes(in: payload, min(skip, payload.count)..<payload.count, sizeToEnd: false)
        if let (offset, problem) = defect {
            let type = offset + 8 <= payload.count ? MP4BoxType(rawValue: BigEndian.uint32(payload, offset + 4)) : MP4BoxType(rawValue: 0)
            switch problem {
            case .truncated:
                report("mp4-box-truncated", .error, at: base + UInt64(offset), "\(payload.count - offset) stray bytes end a box's children.")
            case .sizeBelowHeader(let size), .pastLimit(let size, _):
                report(size < 8 ? "mp4-box-size" : "mp4-box-truncated", .error, at: base + UInt64(offset),
                       "The '\(type)' box claims \(size) bytes, which does not fit its parent.")
            case .sizeToEndInside:
                report("mp4-box-size", .error, at: base + UInt64(offset), "The '\(type)' box claims 0 bytes, which does not fit its parent.")
            case .truncatedExtension:
                report("mp4-box-truncated", .error, at: base + UInt64(offset), "The '\(type)' box's 64-bit size is cut off inside its parent.")
            }
        }
        return boxes.map { box in
            (box.type, Array(payload[Int(box.payloadOffset)..<Int(box.end)]), base + box.payloadOffset)
        }
    }

    // MARK: Fragments

    private mutating func moof(_ payload: [UInt8], box: Box) -> Fragment {
        var fragment = Fragment(offset: box.offset)
        var previousEnd: UInt64?
        for child in children(payload, base: box.offset + box.headerSize) {
            switch child.type {
            case .mfhd where child.payload.count >= 8:
                let sequence = BigEndian.uint32(child.payload, 4)
                if sequence == 0 || lastSequence.map({ sequence <= $0 }) == true {
                    report("mp4-sequence", .warning, at: child.offset,
                           "The fragment sequence number \(sequence) does not increase (previous \(lastSequence.map(String.init) ?? "none")).")
                }
                lastSequence = sequence
            case .traf:
                previousEnd = traf(child.payload, at: child.offset, moofOffset: box.offset, previousEnd: previousEnd, into: &fragment)
            default: break
            }
        }
        return fragment
    }

    /// Reads one traf: checks its track and tfdt, advances the track's timeline, and records its
    /// runs' byte ranges. Returns where its data ends (the next traf's implicit base).
    private mutating func traf(_ payload: [UInt8], at offset: UInt64, moofOffset: UInt64, previousEnd: UInt64?,
                               into fragment: inout Fragment) -> UInt64? {
        let boxes = children(payload, base: offset)
        guard let tfhd = boxes.first(where: { $0.type == .tfhd })?.payload, tfhd.count >= 8 else {
            report("mp4-no-tfhd", .error, at: offset, "A traf has no tfhd.")
            return previousEnd
        }
        let flags = BigEndian.uint32(tfhd, 0) & 0x00FF_FFFF
        let trackID = BigEndian.uint32(tfhd, 4)
        var cursor = 8
        var base: UInt64 = previousEnd ?? moofOffset
        if flags & 0x1 != 0, tfhd.count >= cursor + 8 {
            base = BigEndian.uint64(tfhd, cursor)
            cursor += 8
            report("mp4-absolute-base", .warning, at: offset, "Track \(trackID)'s tfhd has an absolute base_data_offset, which breaks when segments move.")
        } else if flags & 0x2_0000 != 0 {
            base = moofOffset
        }
        if flags & 0x2 != 0 { cursor += 4 }
        let track = tracks[trackID]
        var defaultDuration = track?.defaultDuration
        var defaultSize = track?.defaultSize
        if flags & 0x8 != 0, tfhd.count >= cursor + 4 { defaultDuration = BigEndian.uint32(tfhd, cursor); cursor += 4 }
        if flags & 0x10 != 0, tfhd.count >= cursor + 4 { defaultSize = BigEndian.uint32(tfhd, cursor) }
        if sawInit, track?.hasTrex != true {
            report("mp4-unknown-track", .error, at: offset, "A traf names track \(trackID), which the init does not declare.")
        }
        var decodeTime: UInt64?
        if let tfdt = boxes.first(where: { $0.type == .tfdt })?.payload, tfdt.count >= 8 {
            decodeTime = tfdt[0] == 1 && tfdt.count >= 12 ? BigEndian.uint64(tfdt, 4) : UInt64(BigEndian.uint32(tfdt, 4))
        } else {
            report("mp4-no-tfdt", .error, at: offset, "Track \(trackID)'s traf has no tfdt (RFC 8216 §3.3).")
        }
        var totalDuration: UInt64? = 0
        var dataEnd = base
        for run in boxes where run.type == .trun {
            let p = run.payload
            guard p.count >= 8 else { continue }
            let runFlags = BigEndian.uint32(p, 0) & 0x00FF_FFFF
            let count = Int(BigEndian.uint32(p, 4))
            var index = 8
            var start = dataEnd
            if runFlags & 0x1 != 0, p.count >= 12 {
                let relative = Int64(Int32(bitPattern: BigEndian.uint32(p, 8)))
                let (sum, overflow) = Int64(clamping: base).addingReportingOverflow(relative)
                guard base <= UInt64(Int64.max), !overflow, sum >= 0 else {
                    report("mp4-trun", .error, at: run.offset, "Track \(trackID)'s trun data_offset points before the start of the file.")
                    fragment.sizesKnown = false
                    continue
                }
                start = UInt64(sum)
                index += 4
            }
            if runFlags & 0x4 != 0 { index += 4 }
            let fields = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count
            guard count >= 0, index + count * fields * 4 <= p.count else {
                report("mp4-trun", .error, at: run.offset, "Track \(trackID)'s trun lists \(count) samples that do not fit the box.")
                fragment.sizesKnown = false
                continue
            }
            // Per-sample fields are bounded by the box; defaults are added in closed form, so a
            // huge sample_count with no per-sample fields costs nothing.
            var length: UInt64 = 0
            var durations: UInt64 = 0
            let stride = fields * 4
            let perSampleDuration = runFlags & 0x100 != 0
            let perSampleSize = runFlags & 0x200 != 0
            if fields > 0 {
                for sample in 0..<count {
                    var field = index + sample * stride
                    if perSampleDuration { durations += UInt64(BigEndian.uint32(p, field)); field += 4 }
                    if perSampleSize { length += UInt64(BigEndian.uint32(p, field)) }
                }
            }
            if !perSampleDuration {
                if let duration = defaultDuration { durations = UInt64(count) * UInt64(duration) } else { totalDuration = nil }
            }
            totalDuration = totalDuration.map { $0.addingReportingOverflow(durations).overflow ? UInt64.max : $0 + durations }
            if !perSampleSize {
                if let size = defaultSize { length = UInt64(count) * UInt64(size) } else { fragment.sizesKnown = false }
            }
            fragment.runs.append((start, length))
            dataEnd = start.addingReportingOverflow(length).overflow ? UInt64.max : start + length
        }
        if let decodeTime, let totalDuration {
            if let expected = nextDecodeTime[trackID], expected != decodeTime {
                let scale = Double(max(1, track?.timescale ?? 1))
                let seconds = (Double(decodeTime) - Double(expected)) / scale
                if decodeTime > expected {
                    report("mp4-tfdt-gap", .warning, at: offset,
                           "Track \(trackID) leaves a gap of \(seconds) s: tfdt \(decodeTime), expected \(expected) after the previous fragment.")
                } else {
                    report("mp4-tfdt-overlap", .error, at: offset,
                           "Track \(trackID) goes back \(-seconds) s: tfdt \(decodeTime), expected \(expected) after the previous fragment.")
                }
            }
            let (next, overflow) = decodeTime.addingReportingOverflow(totalDuration)
            nextDecodeTime[trackID] = overflow ? nil : next
        }
        if let totalDuration {
            let sum = fragmentDurations[moofOffset, default: [:]][trackID, default: 0].addingReportingOverflow(totalDuration)
            fragmentDurations[moofOffset, default: [:]][trackID] = sum.overflow ? UInt64.max : sum.partialValue
        }
        return dataEnd
    }

    private mutating func mdat(_ box: Box, _ fragment: Fragment) {
        let payloadStart = box.offset + box.headerSize
        let payloadEnd = box.offset + box.size
        var covered: UInt64 = 0
        for run in fragment.runs {
            let (end, overflow) = run.start.addingReportingOverflow(run.length)
            guard run.start >= payloadStart, !overflow, end <= payloadEnd else {
                report("mp4-trun-outside-mdat", .error, at: fragment.offset,
                       "A trun's \(run.length) sample bytes from byte \(run.start) lie outside the mdat payload (\(payloadStart)–\(payloadEnd)).")
                return
            }
            covered = covered.addingReportingOverflow(run.length).overflow ? UInt64.max : covered + run.length
        }
        if fragment.sizesKnown, covered != payloadEnd - payloadStart {
            report("mp4-mdat-size", .warning, at: box.offset,
                   "The samples add up to \(covered) bytes but the mdat payload holds \(payloadEnd - payloadStart).")
        }
    }

    // MARK: Helpers

    mutating func report(_ id: String, _ severity: MediaFinding.Severity, at offset: UInt64, _ message: String) {
        log.report(id, severity, at: offset, message)
    }
}
