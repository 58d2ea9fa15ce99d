#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// One attempt at a planned package, with the destination already locked: the checkpoint (keys
/// it vouches for checked), restore, the transfer engine into the per-resource sink, the local
/// playlists and the manifests, the commit — and on failure, what stays for the next run.
struct PackageJob: Sendable {
    let paths: DownloadPaths
    let options: PackageDownload.Options
    let fetcher: ResourceFetcher
    let clock: any Clock<Duration>
    let events: @Sendable (PackageDownload.Event) -> Void

    func run(_ planned: PackageDownload.Planned, resolver: any TransferURLResolver, resumes: Bool?) async throws(HLSError) -> PackageReport {
        let plan = planned.plan
        try options.bounds.checkBudgets(knownBytes: plan.knownBytes, largestRange: plan.largestRange)
        events(.planned(planned.summary))
        let staging: StagingDirectory
        do { staging = try StagingDirectory(destination: paths.destination, policy: options.overwrite, resumableAt: paths.partial) } catch {
            throw HLSError(destination: error)
        }
        var sink: ResourceFileSink?
        var checkpoint: CheckpointLog<ResourceFileRecord>?
        do throws(HLSError) {
            let log = try CheckpointLog<ResourceFileRecord>(path: paths.checkpoint, fingerprint: plan.fingerprint.hex, resume: resumes ?? options.resumes)
            checkpoint = log
            let keys = KeyCache(fetcher: fetcher, resolver: resolver)
            var records = log.restorable
            if let reason = log.discarded {
                events(.checkpointDiscarded(reason: reason))
            } else if let changed = try await keys.change(in: Self.encrypted(records, plan: plan)) {
                events(.checkpointDiscarded(reason: changed))
                records = []
            }
            try SpillFolder.prepare(paths.spill)
            let writer = ResourceFileSink(staging: staging, checkpoint: log, spillFolder: paths.spill, checkpointBytes: options.checkpointBytes,
                                          clock: clock, place: plan.place)
            sink = writer
            let done = try writer.restore(records)
            let restoredBytes = writer.restoredBytes
            if !done.isEmpty { events(.resumed(resources: done.count, bytes: restoredBytes)) }
            try options.bounds.checkCapacity(knownBytes: plan.knownBytes, restoredBytes: restoredBytes, destination: paths.destination)
            let pending = plan.resources.filter { !done.contains($0.identity) }
            try await transfer(pending, plan: plan, restored: done, restoredBytes: restoredBytes, resolver: resolver, keys: keys, into: writer)
            let media = try writer.finish() + PackageWriter.emptyFiles(plan.gapFiles)
            try PackageWriter.writeEmpty(plan.gapFiles, in: staging)
            let manifest = try PackageWriter.finish(try plan.contents(of: media), media: media, in: staging)
            do { _ = try staging.commit() } catch { throw HLSError(destination: error) }
            log.remove()
            FolderTree.remove(at: paths.spill)
            return PackageReport(destination: paths.destination, plan: planned.summary, manifest: manifest,
                                 bytesWritten: writer.bytesWritten, resumedResources: done.count)
        } catch {
            settle(error, staging: staging, sink: sink, checkpoint: checkpoint)
            throw error
        }
    }

    /// The encryption of each record's resource, with the key fingerprint the record holds.
    private static func encrypted(_ records: [ResourceFileRecord], plan: PackagePlan) -> [(encryption: ResourceEncryption, fingerprint: String?)] {
        let encryption = Dictionary(plan.resources.compactMap { resource in resource.encryption.map { (resource.identity, $0) } },
                                    uniquingKeysWith: { first, _ in first })
        return records.compactMap { record in record.identity.flatMap { encryption[$0] }.map { ($0, record.key) } }
    }

    /// After a failure: a transient one keeps the staging folder and a checkpoint of what it
    /// holds (flushed now); anything else, or nothing written, removes both.
    private func settle(_ error: HLSError, staging: StagingDirectory, sink: ResourceFileSink?, checkpoint: CheckpointLog<ResourceFileRecord>?) {
        FolderTree.remove(at: paths.spill)
        if error.code.keepsCheckpoint, let sink, checkpoint != nil, sink.resourcesDone > 0,
           (try? sink.checkpointIfDue(force: true)) != nil {   // else the checkpoint cannot vouch for the files: drop both
            staging.keep()
            return
        }
        staging.discard()
        if let checkpoint { checkpoint.remove() } else { try? FileManager.default.removeItem(atPath: paths.checkpoint) }   // absent is fine
    }

    private func transfer(_ pending: [PlannedResource], plan: PackagePlan, restored: Set<ResourceIdentity>, restoredBytes: UInt64,
                          resolver: any TransferURLResolver,
                          keys: KeyCache, into writer: ResourceFileSink) async throws(HLSError) {
        let engine = options.bounds.engine(fetcher: fetcher, resolver: resolver, keys: keys, preparation: .validatedFiles,
                                           spillFolder: paths.spill, clock: clock)
        var perTrack: [String: Int] = [:]
        for resource in plan.resources where restored.contains(resource.identity) { perTrack[resource.identity.stream.rawValue, default: 0] += 1 }
        let order = pending.map(\.identity.stream.rawValue)
        var reported = 0
        let total = plan.resources.count
        let report = { [events] in
            // Resources are written in order: the ones written since the last report are the next in `order`.
            while reported < writer.resourcesDone - restored.count, reported < order.count {
                perTrack[order[reported], default: 0] += 1
                reported += 1
            }
            events(.progress(DownloadProgress(resourcesDone: writer.resourcesDone, resourceCount: total, bytesWritten: writer.bytesWritten,
                                              bytesFetched: restoredBytes + writer.bytesWritten, totalBytes: plan.knownBytes), tracks: perTrack))
        }
        report()
        do {
            try await engine.run(ListInput(PlannedFetch.coalescing(pending, maximumBytes: plan.maximumCoalescedBytes)),
                                 firstIndex: restored.count, into: writer, progress: report)
        } catch where error.code == .cancelled {
            throw HLSError(.cancelled, "The package to \(paths.destination.path) was cancelled.", cause: error.cause)
        }
    }
}
