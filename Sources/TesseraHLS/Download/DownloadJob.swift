#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// One attempt at a planned single-file download, with the destination already locked: the
/// checkpoint (keys it vouches for checked), restore, the transfer engine into the single-file
/// assembler, validation, commit — and on failure, what stays for the next run.
struct DownloadJob: Sendable {
    let paths: DownloadPaths
    let options: SingleFileDownload.Options
    let fetcher: ResourceFetcher
    let clock: any Clock<Duration>
    let events: @Sendable (SingleFileDownload.Event) -> Void

    /// A planned download: the plan, its summary, the media playlist's URL and any session keys
    /// fetched early.
    struct Planned: Sendable {
        let plan: DownloadPlan
        let summary: DownloadPlanSummary
        let url: URL
        let prefetched: SessionKeyPrefetch?
    }

    func run(_ planned: Planned, resolver: any TransferURLResolver, resumes: Bool? = nil) async throws(HLSError) -> DownloadReport {
        let plan = planned.plan
        let output: StagingFile
        do { output = try StagingFile(destination: paths.destination, policy: options.overwrite, resumableAt: paths.partial) } catch {
            throw HLSError(destination: error)
        }
        var assembler: SingleFileAssembler?
        var checkpoint: CheckpointLog<AssemblyRecord>?
        do throws(HLSError) {
            try options.bounds.checkBudgets(knownBytes: plan.knownBytes, largestRange: plan.largestRange)
            events(.planned(planned.summary))
            let log = try CheckpointLog<AssemblyRecord>(path: paths.checkpoint, fingerprint: plan.fingerprint.hex, resume: resumes ?? options.resumes)
            checkpoint = log
            let keys = KeyCache(fetcher: fetcher, resolver: resolver, prefetched: planned.prefetched)
            var records = log.restorable
            if let reason = log.discarded {
                events(.checkpointDiscarded(reason: reason))
            } else if let changed = try await keys.change(in: records.compactMap { record in
                record.resource < plan.resourceCount ? plan.resource(at: record.resource).encryption.map { ($0, record.key) } : nil
            }) {
                events(.checkpointDiscarded(reason: changed))
                records = []
            }
            try SpillFolder.prepare(paths.spill)
            var settings = SingleFileAssembler.Settings()
            settings.capacity = options.capacity
            settings.maximumJobBytes = options.maximumJobBytes
            settings.maximumResourceBytes = options.maximumResourceBytes
            settings.checkpointBytes = options.checkpointBytes
            let writer = try SingleFileAssembler(plan: plan, output: output, checkpoint: log, spillFolder: paths.spill,
                                                 settings: settings, clock: clock)
            assembler = writer
            let restored = try writer.restore(records)
            if restored > 0 { events(.resumed(resources: restored, bytes: writer.bytesWritten)) }
            // Network bytes of the restored resources, as far as their byte ranges say.
            let restoredBytes = (0..<restored).reduce(UInt64(0)) { $0 + (plan.resource(at: $1).identity.byteRange?.length ?? 0) }
            try options.bounds.checkCapacity(knownBytes: plan.knownBytes, restoredBytes: restoredBytes, destination: paths.destination)
            try await transfer(plan, from: restored, restoredBytes: restoredBytes, resolver: resolver, keys: keys, into: writer)
            let (digest, findings) = try writer.finish()
            do { try output.commit() } catch { throw HLSError(destination: error) }
            log.remove()
            FolderTree.remove(at: paths.spill)
            return DownloadReport(destination: paths.destination, plan: planned.summary, segmentCount: plan.segmentCount,
                                  byteCount: writer.bytesWritten, resumedResources: restored, sha256: digest, findings: findings)
        } catch {
            settle(error, output: output, assembler: assembler, checkpoint: checkpoint)
            throw error
        }
    }

    /// After a failure: a transient one keeps the partial file and a checkpoint of what it holds
    /// (flushed now); anything else, or nothing written, removes both. A failure before the
    /// plan met its checkpoint leaves an earlier run's state alone.
    private func settle(_ error: HLSError, output: StagingFile, assembler: SingleFileAssembler?, checkpoint: CheckpointLog<AssemblyRecord>?) {
        FolderTree.remove(at: paths.spill)
        guard let checkpoint, let assembler else {
            if output.size == 0 {
                output.discard()
                unlink(paths.checkpoint)
            } else {
                output.keep()
            }
            return
        }
        if error.code.keepsCheckpoint, assembler.resourcesDone > 0,
           (try? assembler.checkpointIfDue(force: true)) != nil {   // else the checkpoint cannot vouch for the file: drop both
            output.keep()
            return
        }
        output.discard()
        checkpoint.remove()
    }

    private func transfer(_ plan: DownloadPlan, from restored: Int, restoredBytes: UInt64, resolver: any TransferURLResolver,
                          keys: KeyCache, into writer: SingleFileAssembler) async throws(HLSError) {
        let engine = options.bounds.engine(fetcher: fetcher, resolver: resolver, keys: keys,
                                           preparation: plan.container == .fragmentedMP4 ? .joinedFragmentedMP4 : .asFetched,
                                           spillFolder: paths.spill, clock: clock)
        let resourceCount = plan.resourceCount
        let report = { [events] in
            events(.progress(DownloadProgress(resourcesDone: writer.resourcesDone, resourceCount: resourceCount,
                                              bytesWritten: writer.bytesWritten, bytesFetched: restoredBytes + writer.bytesFetched,
                                              totalBytes: plan.knownBytes)))
        }
        report()
        do {
            try await engine.run(ListInput(plan.fetches(from: restored)), firstIndex: restored, into: writer, progress: report)
        } catch where error.code == .cancelled {
            throw HLSError(.cancelled, "The download to \(paths.destination.path) was cancelled.", cause: error.cause)
        }
    }
}
