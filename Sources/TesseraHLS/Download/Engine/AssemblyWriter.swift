import Foundation
import TesseraHTTP
import TesseraMedia

/// The ordered half of a download: takes prepared resources strictly in plan order, checks
/// MPEG-TS with the job-wide validator (joins included), reserves space under the capacity
/// policy, appends to the partial file, keeps the whole file's SHA-256, and records durable
/// checkpoints at resource boundaries. Before publication the whole file passes its container's
/// validator. One owner; not `Sendable`.
final class AssemblyWriter {
    private let plan: DownloadPlan
    private let output: StagingFile
    private let checkpoint: CheckpointLog
    private let hasher: SHA256Hasher
    private let capacity: CapacityPolicy
    private let maximumJobBytes: UInt64
    private var validator = TSValidator()
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
         maximumJobBytes: UInt64, checkpointBytes: UInt64) throws(HLSError) {
        self.plan = plan
        self.output = output
        self.checkpoint = checkpoint
        self.capacity = capacity
        self.maximumJobBytes = maximumJobBytes
        self.checkpointBytes = checkpointBytes
        do { hasher = try SHA256Hasher() } catch {
            throw HLSError(.decryptFailed, "libcrypto is unavailable: \(error)", cause: error)
        }
    }

    /// Replays the resources a checkpoint vouches for: each one's bytes in the partial file must
    /// still have its recorded digest. Stops at the first that does not, cuts the file back to
    /// the last good fetch boundary, and returns how many resources were restored.
    func restore(_ records: [CheckpointRecord], boundaries: Set<Int>) throws(HLSError) -> Int {
        var verified: [CheckpointRecord] = []
        var offset: UInt64 = 0
        for record in records {
            guard record.resource == verified.count, let count = record.bytes, count <= UInt64(Int.max),
                  let bytes = output.read(at: offset, count: Int(count)),
                  SHA256Hasher.hash(bytes).hex == record.sha256 else { break }
            verified.append(record)
            offset += count
        }
        while let last = verified.last, !boundaries.contains(verified.count) {
            offset -= last.bytes ?? 0
            verified.removeLast()
        }
        do { try output.truncate(to: offset) } catch { throw HLSError(destination: error) }
        var position: UInt64 = 0
        for record in verified {
            guard let bytes = output.read(at: position, count: Int(record.bytes ?? 0)) else {
                throw HLSError(.destinationUnwritable, "The partial file \(output.stagingPath) could not be read back.")
            }
            try check(bytes, resource: plan.resources[record.resource ?? 0])
            if let source = record.source, let validator = record.validator { validators[source] = validator }
            hasher.update(bytes)
            position += UInt64(bytes.count)
        }
        resourcesDone = verified.count
        bytesWritten = offset
        try checkpoint.reset(keeping: verified)
        return verified.count
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
        try check(resource.bytes, resource: plan.resources[resource.index])
        if capacity != .disabled {
            do {
                _ = try output.reserve(count)
            } catch where capacity == .required {
                throw HLSError(.insufficientSpace, error.message, cause: error)
            } catch {
                // best-effort: the write below reports a full volume if it really is one
            }
        }
        do { try output.append(resource.bytes) } catch { throw HLSError(destination: error) }
        hasher.update(resource.bytes)
        bytesWritten += count
        bytesFetched += resource.fetchedBytes
        resourcesDone += 1
        resourcesSinceCheckpoint.append(CheckpointRecord(resource: resource.index, bytes: count, sha256: resource.sha256.hex,
                                                         source: resource.source, validator: resource.validator))
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

    /// Checks the whole output with its container's validator; returns the file's SHA-256.
    /// - Throws: `malformed-media` with the first error finding.
    func finish() throws(HLSError) -> SHA256Digest {
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
        return hasher.finalize()
    }

    /// TS: the job-wide validator over the resource, as one segment of the joined stream.
    private func check(_ bytes: [UInt8], resource: PlannedResource) throws(HLSError) {
        guard plan.container == .mpegTS else { return }
        if validator.byteCount > 0 { validator.beginSegment(discontinuity: resource.startsDiscontinuity) }
        let before = validator.findings.count
        validator.consume(bytes)
        validator.endSegment()
        if let finding = validator.findings.dropFirst(before).first(where: { $0.severity == .error }) {
            throw HLSError(.malformedMedia, "\(resource.label) is not a valid MPEG-TS segment\(resource.encryption == nil ? "" : " after decryption (wrong key or IV?)"): \(finding)")
        }
    }
}
