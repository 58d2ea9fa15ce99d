/// How a download treats the free space of the destination's volume.
public enum CapacityPolicy: String, Sendable {
    /// Refuse before fetching when the plan's known size does not fit, and reserve each
    /// resource's bytes before writing them; a volume that fills up fails the job with
    /// `insufficient-space` (the checkpoint is kept, so freeing space and rerunning resumes).
    case required
    /// Reserve when the file system can; never refuse in advance. A full volume still fails the
    /// write (`destination-unwritable`).
    case bestEffort = "best-effort"
    /// No checks and no reservation.
    case disabled
}
