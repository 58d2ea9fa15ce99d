extension PackageDownload {
    /// What a package job reports while it runs, in order: the lifecycle every media job shares,
    /// with the plan's summary and the progress of the package and each track.
    public typealias Event = JobEvent<PackagePlanSummary, PackageProgress, Never>
}
