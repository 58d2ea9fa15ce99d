/// What `MediaJob` takes from a job's options.
package struct JobSettings: Sendable {
    /// What the job is called in messages ("download", "package", "recording").
    package var noun: String
    /// Transfer bounds, budgets and capacity policy.
    package var bounds: TransferBounds
    /// Whether the first attempt continues from a checkpoint of an earlier run.
    package var resumes: Bool
    /// How long a failed pathway is avoided under Content Steering.
    package var steeringPenalty: Duration

    package init(noun: String, bounds: TransferBounds, resumes: Bool, steeringPenalty: Duration) {
        self.noun = noun
        self.bounds = bounds
        self.resumes = resumes
        self.steeringPenalty = steeringPenalty
    }
}
