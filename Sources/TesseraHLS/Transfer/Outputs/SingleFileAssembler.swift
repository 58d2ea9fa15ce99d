#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// The single-file output of the transfer engine: takes prepared resources strictly in plan
/// order, rebases MPEG-TS runs onto one timeline and checks them with the job-wide validator
/// (joins included), keeps fMP4 fragment numbers increasing, reserves space under the capacity
/// policy, appends to the partial file, keeps the file's running SHA-256 (its value at each
/// resource boundary is that resource's checkpoint digest), and records durable checkpoints.
/// A resource that arrived in a spill file is read from it a chunk at a time. Before
/// publication the whole file passes its container's validator. One owner; not `Sendable`.
package final class SingleFileAssembler: JobOutput, TransferOutput {
    /// What it needs beyond the plan.
    struct Settings {
        var capacity: CapacityPolicy = .required
        var maximumJobBytes: UInt64 = 1 << 40
        var maximumResourceBytes: UInt64 = 256 << 20
        /// Bytes written between durable checkpoints (each costs an fsync).
        var checkpointBytes: UInt64 = 8 << 20
        /// A slow transfer still checkpoints at least this often.
        var checkpointInterval: Duration = .seconds(1)
    }

    /// MPEG-TS chunks are whole packets.
    static let chunkBytes = TSPacket.size * 5577

    private let plan: DownloadPlan
    private let output: StagingFile
    private let checkpoint: CheckpointLog<AssemblyRecord>
    private let settings: Settings
    private var hasher: SHA256Hasher
    private var validator = TSValidator()
    /// MPEG-TS runs after EXT-X-DISCONTINUITY are moved onto one timeline.
    private var rebaser = TSTimestampRebaser()
    private var rebases: Bool { plan.container == .mpegTS && plan.hasDiscontinuities }
    /// fMP4 fragment numbers kept increasing across segments.
    private var numbering = MP4SegmentAssembly.FragmentNumbering()
    /// The validator digest seen for each source file on each pathway: a file answering with
    /// another one changed on the server.
    private var validators = SourceValidators()
    private var pendingRecords: [AssemblyRecord] = []
    private var schedule: CheckpointSchedule
    /// It writes what the transfer gives it itself.
    package var writer: SingleFileAssembler { self }
    package let spillFolder: String
    /// Resources written (restored ones included).
    package private(set) var resourcesDone = 0
    /// Bytes in the output.
    private(set) var bytesWritten: UInt64 = 0
    /// Bytes fetched for the resources written in this run.
    private(set) var bytesFetched: UInt64 = 0

    init(plan: DownloadPlan, output: StagingFile, checkpoint: CheckpointLog<AssemblyRecord>, spillFolder: String,
         settings: Settings, clock: any Clock<Duration>) throws(HLSError) {
        self.plan = plan
        self.output = output
        self.checkpoint = checkpoint
        self.spillFolder = spillFolder
        self.settings = settings
        schedule = CheckpointSchedule(bytes: settings.checkpointBytes, interval: settings.checkpointInterval, clock: clock)
        hasher = try Self.makeHasher()
    }

    // MARK: Restore

    /// Replays the resources a checkpoint vouches for, reading the partial file once a chunk at
    /// a time: hashed from its start, it must give each recorded running digest; each resource
    /// that does is replayed through the validator (and the rebaser or fragment numbering).
    /// Stops at the first that does not, cuts the file back to it (replaying again only then),
    /// and returns what was restored (network bytes as far as the byte ranges say).
    package func restore(_ records: [AssemblyRecord]) throws(HLSError) -> JobRestoration {
        let count = try restoreRecords(records)
        let fetched = (0..<count).reduce(UInt64(0)) { $0 + (plan.resource(at: $1).identity.byteRange?.length ?? 0) }
        return JobRestoration(resources: count, bytes: bytesWritten, fetchedBytes: fetched)
    }

    private func restoreRecords(_ records: [AssemblyRecord]) throws(HLSError) -> Int {
        var kept: [AssemblyRecord] = []
        var offset: UInt64 = 0
        var stateMatchesKept = true
        for record in records {
            guard record.resource == kept.count, record.resource < plan.resourceCount, record.bytes <= settings.maximumResourceBytes,
                  offset.addingReportingOverflow(record.bytes).partialValue <= output.size else { break }
            let resource = plan.resource(at: record.resource)
            guard try replay(from: offset, count: record.bytes, resource, record, hashing: true) else {
                stateMatchesKept = false    // the digest now includes bytes that are not kept
                break
            }
            kept.append(record)
            offset += record.bytes
        }
        do { try output.truncate(to: offset) } catch { throw HLSError(destination: error) }
        if !stateMatchesKept {
            // Rare (a damaged or torn partial file): start the state afresh over what is kept.
            try resetState()
            var position: UInt64 = 0
            for record in kept {
                _ = try replay(from: position, count: record.bytes, plan.resource(at: record.resource), record, hashing: true)
                position += record.bytes
            }
        }
        if rebases, let run = kept.last?.rebase, !rebaser.resume(run: run) {
            // The checkpoint cannot say how the run in progress was moved: start over.
            do { try output.truncate(to: 0) } catch { throw HLSError(destination: error) }
            try checkpoint.reset(keeping: [])
            try resetState()
            return 0
        }
        resourcesDone = kept.count
        bytesWritten = offset
        try checkpoint.reset(keeping: kept)
        return kept.count
    }

    /// Reads `count` bytes at `offset` of the partial file through the state (hasher, validator,
    /// rebaser or numbering); false when the running digest does not match the record's.
    private func replay(from offset: UInt64, count: UInt64, _ resource: PlannedResource, _ record: AssemblyRecord,
                        hashing: Bool) throws(HLSError) -> Bool {
        var done: UInt64 = 0
        beginValidation(resource)
        while done < count {
            let size = Int(min(UInt64(Self.chunkBytes), count - done))
            guard let chunk = output.read(at: offset + done, count: size) else { return false }
            if hashing { hasher.update(chunk) }
            if plan.container == .mpegTS {
                validator.consume(chunk)
                if rebases { rebaser.observeChunk(chunk, startsSegment: done == 0) }
            }
            done += UInt64(size)
        }
        guard hasher.snapshot().hex == record.sha256 else { return false }
        try endValidation(resource)
        if plan.container == .fragmentedMP4, resource.identity.kind == .segment {
            numbering.observe(PartialFileWindow(file: output, offset: offset, size: count))
        }
        validators.restore(source: record.source, pathway: record.pathway, validator: record.validator)
        return true
    }

    /// The writer as before any byte.
    private func resetState() throws(HLSError) {
        validator = TSValidator()
        rebaser = TSTimestampRebaser()
        numbering = MP4SegmentAssembly.FragmentNumbering()
        validators.reset()
        hasher = try Self.makeHasher()
    }

    // MARK: Writing

    /// Writes the next resource (it must be the next in plan order).
    package func write(_ fetched: FetchedResource) throws(HLSError) {
        precondition(fetched.index == resourcesDone, "resources are written in plan order")
        let resource = fetched.resource
        try validators.check(fetched)
        let before = bytesWritten
        beginValidation(resource)
        switch (plan.container, fetched.body) {
        case (.fragmentedMP4, .spilled(let file)) where resource.identity.kind == .segment:
            try appendBoxes(of: file, resource)
        case (.fragmentedMP4, .memory(var bytes, _)) where resource.identity.kind == .segment:
            numbering.renumber(&bytes)
            try append(bytes, resource)
        case (.mpegTS, let body):
            var isFirst = true
            try body.forEachChunk(Self.chunkBytes) { chunk throws(HLSError) in
                var chunk = chunk
                if rebases {
                    do throws(MediaError) {
                        if isFirst { try rebaser.beginSegment(chunk, startsRun: resource.startsDiscontinuity) }
                        try rebaser.rebaseChunk(&chunk)
                    } catch {
                        throw HLSError(.unsupported, "\(resource.label): \(error.message)", cause: error)
                    }
                }
                isFirst = false
                try append(chunk, resource, checking: true)
            }
        case (_, let body):
            try body.forEachChunk(Self.chunkBytes) { chunk throws(HLSError) in try append(chunk, resource) }
        }
        try endValidation(resource)
        bytesFetched += fetched.fetchedBytes
        resourcesDone += 1
        pendingRecords.append(AssemblyRecord(resource: fetched.index, bytes: bytesWritten - before, sha256: hasher.snapshot().hex,
                                             source: fetched.source, validator: fetched.validator, pathway: fetched.pathway,
                                             key: fetched.keyFingerprint?.hex, rebase: rebases ? rebaser.run : nil))
    }

    /// A spilled fMP4 segment's kept boxes, the `moof`s renumbered, the rest copied in chunks.
    private func appendBoxes(of file: SpillFile, _ resource: PlannedResource) throws(HLSError) {
        guard let source = MP4FileSource(path: file.path) else {
            throw HLSError(.destinationUnwritable, "The spill file \(file.path) could not be read back.")
        }
        let boxes: [MP4BoxHeader]
        do { boxes = try MP4SegmentAssembly.segmentBoxes(source) } catch {
            throw HLSError(.malformedMedia, "\(resource.label) is not valid fMP4: \(error.message)", cause: error)
        }
        for box in boxes {
            if box.type == .moof {
                guard box.size <= UInt64(MP4Validator.maximumParsedBoxBytes) else {
                    throw HLSError(.malformedMedia, "\(resource.label) has a moof of \(box.size) bytes; at most \(MP4Validator.maximumParsedBoxBytes) are read.")
                }
                var moof = source.read(at: box.offset, count: Int(box.size))
                numbering.renumber(&moof)
                try append(moof, resource)
                continue
            }
            var done: UInt64 = 0
            while done < box.size {
                let count = Int(min(UInt64(SpillFile.chunkBytes), box.size - done))
                let chunk = source.read(at: box.offset + done, count: count)
                guard chunk.count == count else {
                    throw HLSError(.destinationUnwritable, "The spill file \(file.path) could not be read back.")
                }
                try append(chunk, resource)
                done += UInt64(count)
            }
        }
    }

    /// Appends `bytes` of `resource`: job budget and capacity reservation, then the write (after
    /// the MPEG-TS validator's look at them, with `checking`) on one thread while the running
    /// digest takes them on the other — the digest alone is as slow as the rest together.
    private func append(_ bytes: [UInt8], _ resource: PlannedResource, checking: Bool = false) throws(HLSError) {
        let count = UInt64(bytes.count)
        guard bytesWritten.addingReportingOverflow(count).partialValue <= settings.maximumJobBytes else {
            throw HLSError(.budgetExceeded, "The output would pass the job's budget of \(settings.maximumJobBytes) bytes at \(resource.label.lowercased()).")
        }
        if settings.capacity != .disabled {
            do {
                _ = try output.reserve(count)
            } catch where settings.capacity == .required {
                throw HLSError(.insufficientSpace, error.message, cause: error)
            } catch {
                _ = error
                // best-effort: the write below reports a full volume if it really is one
            }
        }
        let hasher = hasher
        do throws(SupportError) {
            try SideBySide.run(bytes: bytes.count, { () throws(SupportError) in
                if checking { validator.consume(bytes) }
                try output.append(bytes)
            }, { () throws(SupportError) in hasher.update(bytes) })
        } catch {
            throw HLSError(destination: error)
        }
        bytesWritten += count
        schedule.wrote(count)
    }

    // MARK: Validation

    /// MPEG-TS: the job-wide validator takes the resource as the next segment of the joined stream.
    private func beginValidation(_ resource: PlannedResource) {
        guard plan.container == .mpegTS else { return }
        findingsBefore = validator.findings.count
        // Rebased runs must join as one continuous stream.
        if validator.byteCount > 0 { validator.beginSegment(discontinuity: resource.startsDiscontinuity && !rebases) }
    }

    /// Ends the resource's segment; an error finding in it fails the job.
    private func endValidation(_ resource: PlannedResource) throws(HLSError) {
        guard plan.container == .mpegTS else { return }
        validator.endSegment(expectedDuration: resource.identity.kind == .segment ? resource.duration : nil)
        if let finding = validator.findings.dropFirst(findingsBefore).first(where: { $0.severity == .error }) {
            throw HLSError(.malformedMedia, "\(resource.label) is not a valid MPEG-TS segment\(resource.encryption == nil ? "" : " after decryption (wrong key or IV?)"): \(finding)")
        }
    }

    /// The validator's findings before the current resource.
    private var findingsBefore = 0

    // MARK: Checkpoints and the end

    /// At a fetch boundary: makes the written bytes durable and records them when enough have
    /// accumulated or the interval has passed since the last checkpoint (or always, with `force`).
    package func checkpointIfDue(force: Bool = false) throws(HLSError) {
        guard !pendingRecords.isEmpty, schedule.take(force: force) else { return }
        do { try output.sync() } catch { throw HLSError(destination: error) }
        try checkpoint.append(pendingRecords)
        pendingRecords.removeAll(keepingCapacity: true)
    }

    /// Checks the whole output with its container's validator; returns the file's SHA-256 and the
    /// findings that are not errors (warnings and notes a user may want to see).
    /// - Throws: `malformed-media` with the first error finding.
    package func finish() throws(HLSError) -> (sha256: SHA256Digest, findings: [MediaFinding]) {
        let findings: [MediaFinding]
        switch plan.container {
        case .mpegTS:
            findings = validator.finish()
        case .fragmentedMP4:
            do { try output.sync() } catch { throw HLSError(destination: error) }
            guard let source = MP4FileSource(path: output.stagingPath) else {
                throw HLSError(.destinationUnwritable, "The partial file \(output.stagingPath) could not be read back.")
            }
            var validator = MP4Validator()
            findings = validator.validate(source)
        }
        if let finding = findings.first(where: { $0.severity == .error }) {
            throw HLSError(.malformedMedia, "The assembled file is not valid \(plan.container == .mpegTS ? "MPEG-TS" : "fMP4"): \(finding)")
        }
        return (hasher.finalize(), findings)
    }

    /// Publishes the partial file at the destination.
    package func commit() throws(HLSError) {
        do { _ = try output.commit() } catch { throw HLSError(destination: error) }
    }

    package func settle(keeping: Bool) {
        if keeping { output.keep() } else { output.discard() }
    }

    private static func makeHasher() throws(HLSError) -> SHA256Hasher {
        do { return try SHA256Hasher() } catch {
            throw HLSError(.decryptFailed, "libcrypto is unavailable: \(error)", cause: error)
        }
    }
}
