import TesseraSupport

/// The output of a package job: the plan's resources into the package folder, then — once the
/// media is in — its gap files, local playlists and manifests, and the folder published with
/// one rename.
package final class PackageOutput: JobOutput {
    private let plan: PackagePlan
    /// The folder the transfer writes into.
    package let writer: PackageFolder
    /// The resources a checkpoint vouched for (`restore`).
    package private(set) var restored: Set<ResourceIdentity> = []

    init(plan: PackagePlan, staging: StagingDirectory, checkpoint: CheckpointLog<ResourceFileRecord>, spillFolder: String,
         checkpointBytes: UInt64, clock: any Clock<Duration>) {
        self.plan = plan
        writer = PackageFolder(staging: staging, checkpoint: checkpoint, spillFolder: spillFolder, checkpointBytes: checkpointBytes,
                               clock: clock, place: plan.place)
    }

    package var resourcesDone: Int { writer.resourcesDone }

    package func restore(_ records: [ResourceFileRecord]) throws(HLSError) -> JobRestoration {
        restored = try writer.restore(records)
        return JobRestoration(resources: restored.count, bytes: writer.restoredBytes, fetchedBytes: writer.restoredBytes)
    }

    /// The gap files, each track's local playlist, `master.m3u8` and the manifests; returns the manifest.
    package func finish() throws(HLSError) -> PackageManifest {
        let media = try writer.finishMedia()
        return try writer.finish(try plan.contents(of: media), media: media)
    }

    package func commit() throws(HLSError) { try writer.commit() }

    package func settle(keeping: Bool) { writer.settle(keeping: keeping) }
}
