import Foundation
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// The ordered half of a download: takes prepared resources strictly in plan order, checks
/// MPEG-TS with the job-wide validator (joins included), reserves space under the capacity
/// policy, appends to the partial file, keeps the file's running SHA-256 (its value at each
/// resource boundary is that resource's checkpoint digest), and records durable checkpoints at
/// resource boundaries. Before publication the whole file passes its container's
/// validator. One owner; not `Sendable`.
final class AssemblyWriter {
    private let plan: DownloadPlan
    private let output: StagingFile
    private let checkpoint: CheckpointLog
    private var hasher: SHA256Hasher
    private let capacity: CapacityPolicy
    private let maximumJobBytes: UInt64
    private let maximumResourceBytes: UInt64
    private var validator = TSValidator()
    /// MPEG-TS runs after EXT-X-DISCONTINUITY are moved onto one timeline.
    private var rebaser = TSTimestampRebaser()
    private var rebases: Bool { plan.container == .mpegTS && plan.hasDiscontinuities }
    /// fMP4 fragment numbers kept increasing across segments.
    private var numbering = MP4SegmentAssembly.FragmentNumbering()
    /// The validator digest seen for each source file: a file answering with another one changed.
    private var validators: [String: String] = [:]
    private var resourcesSinceCheckpoint: [CheckpointRecord] = []
    private var bytesSinceCheckpoint: UInt64 = 0
    private let checkpointBytes: UInt64
    /// A slow transfer still checkpoints at least this often.
    private let checkpointInterval: Duration = .seconds(1)
    private var lastCheckpoint = ContinuousClock.now
    /// Resources written (restored ones included).
    private(set) var resourcesDone = 0
    /// Bytes in the output.
    private(set) var bytesWritten: UInt64 = 0
    /// Bytes fetched for the resources written in this run.
    private(set) var bytesFetched: UInt64 = 0

    init(plan: DownloadPlan, output: StagingFile, checkpoint: CheckpointLog, capacity: CapacityPolicy,
         maximumJobBytes: UInt64, maximumResourceBytes: UInt64, checkpointBytes: UInt64) throws(HLSError) {
        self.plan = plan
        self.output = output
        self.checkpoint = checkpoint
        self.capacity = capacity
        self.maximumJobBytes = maximumJobBytes
        self.maximumResourceBytes = maximumResourceBytes
        self.checkpointBytes = checkpointBytes
        hasher = try Self.makeHasher()
    }

    /// Replays the resources a checkpoint vouches for, reading the partial file once: hashed from
    /// its start, it must give each recorded running digest; each resource that does is replayed
    /// through the validator (and the rebaser or fragment numbering). Stops at the first that
    /// does not, cuts the file back to the last good fetch boundary (replaying again only then),
    /// and returns how many resources were restored.
    func restore(_ records: [CheckpointRecord], boundaries: Set<Int>) throws(HLSError) -> Int {
        var kept: [CheckpointRecord] = []
        var offset: UInt64 = 0
        var stateMatchesKept = true
        for record in records {
            guard record.resource == kept.count, record.resource.map({ $0 < plan.resources.count }) == true,
                  let count = record.bytes, count <= maximumResourceBytes,
                  let bytes = output.read(at: offset, count: Int(count)) else { break }
            hasher.update(bytes)
            guard hasher.snapshot().hex == record.sha256 else {
                stateMatchesKept = false    // the digest now includes bytes that are not kept
                break
            }
            try absorb(bytes, record)
            kept.append(record)
            offset += count
        }
        while let last = kept.last, !boundaries.contains(kept.count) {
            offset -= last.bytes ?? 0
            kept.removeLast()
            stateMatchesKept = false
        }
        do { try output.truncate(to: offset) } catch { throw HLSError(destination: error) }
        if !stateMatchesKept {
            // Rare (a damaged or torn partial file): start the state afresh over what is kept.
            try resetState()
            var position: UInt64 = 0
            for record in kept {
                guard let bytes = output.read(at: position, count: Int(record.bytes ?? 0)) else {
                    throw HLSError(.destinationUnwritable, "The partial file \(output.stagingPath) could not be read back.")
                }
                hasher.update(bytes)
                try absorb(bytes, record)
                position += UInt64(bytes.count)
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

    /// A restored resource's bytes through the validator, the rebaser or fragment numbering, and
    /// the source validators.
    private func absorb(_ bytes: [UInt8], _ record: CheckpointRecord) throws(HLSError) {
        try check(bytes, resource: plan.resources[record.resource ?? 0])
        if rebases { rebaser.observe(bytes) }
        if plan.container == .fragmentedMP4 { numbering.observe(bytes) }
        if let source = record.source, let validator = record.validator { validators[source] = validator }
    }

    /// The writer as before any byte.
    private func resetState() throws(HLSError) {
        validator = TSValidator()
        rebaser = TSTimestampRebaser()
        numbering = MP4SegmentAssembly.FragmentNumbering()
        validators = [:]
        hasher = try Self.makeHasher()
    }

    /// Writes the next resource (it must be the next in plan order).
    func write(_ resource: FetchedResource) throws(HLSError) {
        precondition(resource.index == resourcesDone, "resources are written in plan order")
        let count = UInt64(resource.bytes.count)
        guard bytesWritten + count <= maximumJobBytes else {
            throw HLSError(.budgetExceeded, "The output would pass the job's budget of \(maximumJobBytes) bytes at \(plan.resources[resource.index].label.lowercased()).")
        }
        if let seen = resource.validator {
            if let known = validators[resource.source], known != seen {
                throw HLSError(.sourceChanged, "\(plan.resources[resource.index].label) comes from a file that changed on the server (its ETag or Last-Modified differs from earlier responses).")
            }
            validators[resource.source] = seen
        }
        var bytes = resource.bytes
        if rebases {
            do {
                try rebaser.rebase(&bytes, startsRun: plan.resources[resource.index].startsDiscontinuity)
            } catch {
                throw HLSError(.unsupported, "\(plan.resources[resource.index].label): \(error.message)", cause: error)
            }
        }
        if plan.container == .fragmentedMP4, plan.resources[resource.index].kind == .segment {
            numbering.renumber(&bytes)
        }
        try check(bytes, resource: plan.resources[resource.index])
        if capacity != .disabled {
            do {
                _ = try output.reserve(count)
            } catch where capacity == .required {
                throw HLSError(.insufficientSpace, error.message, cause: error)
            } catch {
                // best-effort: the write below reports a full volume if it really is one
            }
        }
        do { try output.append(bytes) } catch { throw HLSError(destination: error) }
        hasher.update(bytes)
        let digest = hasher.snapshot()
        bytesWritten += count
        bytesFetched += resource.fetchedBytes
        resourcesDone += 1
        resourcesSinceCheckpoint.append(CheckpointRecord(resource: resource.index, bytes: count, sha256: digest.hex,
                                                         source: resource.source, validator: resource.validator,
                                                         rebase: rebases ? rebaser.run : nil))
        bytesSinceCheckpoint += count
    }

    /// At a fetch boundary: makes the written bytes durable and records them when enough have
    /// accumulated or a second has passed since the last checkpoint (or always, with `force`).
    func checkpointIfDue(force: Bool = false) throws(HLSError) {
        guard !resourcesSinceCheckpoint.isEmpty else { return }
        let now = ContinuousClock.now
        guard force || bytesSinceCheckpoint >= checkpointBytes || now - lastCheckpoint >= checkpointInterval else { return }
        lastCheckpoint = now
        do { try output.sync() } catch { throw HLSError(destination: error) }
        try checkpoint.append(resourcesSinceCheckpoint)
        resourcesSinceCheckpoint.removeAll(keepingCapacity: true)
        bytesSinceCheckpoint = 0
    }

    /// Checks the whole output with its container's validator; returns the file's SHA-256 and the
    /// findings that are not errors (warnings and notes a user may want to see).
    /// - Throws: `malformed-media` with the first error finding.
    func finish() throws(HLSError) -> (sha256: SHA256Digest, findings: [MediaFinding]) {
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

    private static func makeHasher() throws(HLSError) -> SHA256Hasher {
        do { return try SHA256Hasher() } catch {
            throw HLSError(.decryptFailed, "libcrypto is unavailable: \(error)", cause: error)
        }
    }

    /// TS: the job-wide validator over the resource, as one segment of the joined stream.
    private func check(_ bytes: [UInt8], resource: PlannedResource) throws(HLSError) {
        guard plan.container == .mpegTS else { return }
        // Rebased runs must join as one continuous stream.
        if validator.byteCount > 0 { validator.beginSegment(discontinuity: resource.startsDiscontinuity && !rebases) }
        let before = validator.findings.count
        validator.consume(bytes)
        validator.endSegment(expectedDuration: resource.kind == .segment ? resource.duration : nil)
        if let finding = validator.findings.dropFirst(before).first(where: { $0.severity == .error }) {
            throw HLSError(.malformedMedia, "\(resource.label) is not a valid MPEG-TS segment\(resource.encryption == nil ? "" : " after decryption (wrong key or IV?)"): \(finding)")
        }
    }
}
