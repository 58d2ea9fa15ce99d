import Foundation
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// One attempt at a planned download, with the destination already locked: keys, checkpoint,
/// restore, the ordered parallel transfer, validation, commit — and on failure, what stays for
/// the next run.
struct DownloadJob: Sendable {
    let paths: DownloadPaths
    let options: SingleFileDownload.Options
    let fetcher: ResourceFetcher
    let events: @Sendable (SingleFileDownload.Event) -> Void

    func run(_ planned: (plan: DownloadPlan, summary: DownloadPlanSummary), resumes: Bool? = nil) async throws(HLSError) -> DownloadReport {
        let plan = planned.plan
        let output: StagingFile
        do { output = try StagingFile(destination: paths.destination, policy: options.overwrite, resumableAt: paths.partial) } catch {
            throw HLSError(destination: error)
        }
        var writer: AssemblyWriter?
        var checkpoint: CheckpointLog?
        do throws(HLSError) {
            if let known = plan.knownBytes, known > options.maximumJobBytes {
                throw HLSError(.budgetExceeded, "The plan holds \(known) bytes, over the job's budget of \(options.maximumJobBytes).")
            }
            if let large = plan.resources.first(where: { ($0.range?.length ?? 0) > options.maximumResourceBytes }) {
                throw HLSError(.budgetExceeded, "\(large.label) is a byte range of \(large.range?.length ?? 0) bytes, over the budget of \(options.maximumResourceBytes) per resource.")
            }
            let keys = try await fetchKeys(plan)
            events(.planned(planned.summary))
            let log = try CheckpointLog(path: paths.checkpoint, fingerprint: PlanFingerprint.of(plan, keys: keys).hex,
                                        resume: resumes ?? options.resumes)
            checkpoint = log
            let assembly = try AssemblyWriter(plan: plan, output: output, checkpoint: log, capacity: options.capacity,
                                              maximumJobBytes: options.maximumJobBytes, maximumResourceBytes: options.maximumResourceBytes,
                                              checkpointBytes: options.checkpointBytes)
            writer = assembly
            if let reason = log.discarded { events(.checkpointDiscarded(reason: reason)) }
            let boundaries = Set(plan.fetches.map(\.resources.lowerBound) + [plan.resources.count])
            let restored = try assembly.restore(log.restorable, boundaries: boundaries)
            if restored > 0 { events(.resumed(resources: restored, bytes: assembly.bytesWritten)) }
            // Network bytes of the restored resources, as far as their byte ranges say.
            let restoredBytes = plan.resources.prefix(restored).reduce(UInt64(0)) { $0 + ($1.range?.length ?? 0) }
            try checkCapacity(plan, restoredBytes: restoredBytes)
            try await transfer(plan, keys: keys, writer: assembly, restored: restored, restoredBytes: restoredBytes)
            let (digest, findings) = try assembly.finish()
            do { try output.commit() } catch { throw HLSError(destination: error) }
            log.remove()
            return DownloadReport(destination: paths.destination, plan: planned.summary, segmentCount: plan.segmentCount,
                                  byteCount: assembly.bytesWritten, resumedResources: restored, sha256: digest,
                                  findings: findings)
        } catch {
            settle(error, output: output, writer: writer, checkpoint: checkpoint)
            throw error
        }
    }

    /// After a failure: a transient one keeps the partial file and a checkpoint of what it holds
    /// (flushed now); anything else, or nothing written, removes both. A failure before the
    /// plan met its checkpoint leaves an earlier run's state alone.
    private func settle(_ error: HLSError, output: StagingFile, writer: AssemblyWriter?, checkpoint: CheckpointLog?) {
        guard let checkpoint, let writer else {
            if output.size == 0 {
                output.discard()
                unlink(paths.checkpoint)
            } else {
                output.keep()
            }
            return
        }
        if error.code.keepsCheckpoint, writer.resourcesDone > 0,
           (try? writer.checkpointIfDue(force: true)) != nil {   // else the checkpoint cannot vouch for the file: drop both
            output.keep()
            return
        }
        output.discard()
        checkpoint.remove()
    }

    private func fetchKeys(_ plan: DownloadPlan) async throws(HLSError) -> [URL: [UInt8]] {
        var keys: [URL: [UInt8]] = [:]
        for url in plan.keyURLs {
            let (bytes, _) = try await fetcher.fetch(url, purpose: .key, what: "Key", limit: 4096)
            guard bytes.count == 16 else {
                throw HLSError(.badKey, "Key \(URLRedaction.redact(url)) is \(bytes.count) bytes; an AES-128 key is exactly 16.")
            }
            keys[url] = bytes
        }
        return keys
    }

    private func checkCapacity(_ plan: DownloadPlan, restoredBytes done: UInt64) throws(HLSError) {
        guard options.capacity == .required, let known = plan.knownBytes else { return }
        var info = statvfs()
        guard statvfs(paths.destination.deletingLastPathComponent().path, &info) == 0 else { return }
        let free = UInt64(info.f_bavail) * UInt64(info.f_frsize)
        guard free >= known - done else {
            throw HLSError(.insufficientSpace, "\(paths.destination.path) needs about \(known - done) more bytes; its volume has \(free) free.")
        }
    }

    private func transfer(_ plan: DownloadPlan, keys: [URL: [UInt8]], writer: AssemblyWriter, restored: Int,
                          restoredBytes: UInt64) async throws(HLSError) {
        let processor = ResourceProcessor(fetcher: fetcher, plan: plan, keys: keys, limits: options.segmentLimits,
                                          maximumResourceBytes: options.maximumResourceBytes)
        let pending = Array(plan.fetches.drop { $0.resources.lowerBound < restored })
        let report = { [events] in
            events(.progress(DownloadProgress(resourcesDone: writer.resourcesDone, resourceCount: plan.resources.count,
                                              bytesWritten: writer.bytesWritten, bytesFetched: restoredBytes + writer.bytesFetched,
                                              totalBytes: plan.knownBytes)))
        }
        report()
        try await OrderedTransfer.run(count: pending.count, parallelism: min(32, max(1, options.parallelism)),
                                      maximumBytes: options.maximumBufferedBytes,
                                      size: { pending[$0].range?.length },
                                      measure: { $0.reduce(0) { $0 + $1.fetchedBytes } },
                                      work: { index async throws(HLSError) in try await processor.process(pending[index]) },
                                      consume: { _, resources throws(HLSError) in
                                          for resource in resources { try writer.write(resource) }
                                          try writer.checkpointIfDue()
                                          report()
                                      })
        if Task.isCancelled { throw HLSError(.cancelled, "The download to \(paths.destination.path) was cancelled.") }
    }
}
