import TesseraSupport

/// The output of a package job: the plan's resources through the per-resource file sink into
/// the staging folder, then — once the media is in — its gap files, local playlists and
/// manifests, and the folder published with one rename.
package final class PackageOutput: JobOutput {
    private let plan: PackagePlan
    private let staging: StagingDirectory
    package let sink: ResourceFileSink
    /// The resources a checkpoint vouched for (`restore`).
    package private(set) var restored: Set<ResourceIdentity> = []

    init(plan: PackagePlan, staging: StagingDirectory, checkpoint: CheckpointLog<ResourceFileRecord>, spillFolder: String,
         checkpointBytes: UInt64, clock: any Clock<Duration>) {
        self.plan = plan
        self.staging = staging
        sink = ResourceFileSink(staging: staging, checkpoint: checkpoint, spillFolder: spillFolder, checkpointBytes: checkpointBytes,
                                clock: clock, place: plan.place)
    }

    package var spillFolder: String { sink.spillFolder }
    package var resourcesDone: Int { sink.resourcesDone }

    package func write(_ resource: FetchedResource) throws(HLSError) { try sink.write(resource) }

    package func checkpointIfDue(force: Bool) throws(HLSError) { try sink.checkpointIfDue(force: force) }

    package func restore(_ records: [ResourceFileRecord]) throws(HLSError) -> JobRestoration {
        restored = try sink.restore(records)
        return JobRestoration(resources: restored.count, bytes: sink.restoredBytes, fetchedBytes: sink.restoredBytes)
    }

    /// The gap files, each track's local playlist, `master.m3u8` and the manifests; returns the manifest.
    package func finish() throws(HLSError) -> PackageManifest {
        let media = try sink.finish()
        return try PackageWriter.finish(try plan.contents(of: media), media: media, in: staging)
    }

    package func commit() throws(HLSError) {
        do { _ = try staging.commit() } catch { throw HLSError(destination: error) }
    }

    package func settle(keeping: Bool) {
        if keeping { staging.keep() } else { staging.discard() }
    }
}
