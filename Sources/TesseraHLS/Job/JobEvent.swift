/// What a media job — a download, a package, a recording — reports while it runs, in order and
/// from several threads, through one route: the lifecycle every job shares, and `job` for what
/// only one kind says. URLs are in event form (query values redacted); keys and headers never
/// appear.
public enum JobEvent<Plan: Sendable, Progress: Sendable, Notice: Sendable>: Sendable {
    /// The plan is made (after the playlists and any early keys were fetched, before any media byte).
    case planned(Plan)
    /// An existing checkpoint was verified: these resources and bytes are kept.
    case resumed(resources: Int, bytes: UInt64)
    /// An existing checkpoint could not be used (or no longer matches); the job starts over.
    case checkpointDiscarded(reason: String)
    /// A request failed and is retried after `delay`.
    case retry(url: String, attempt: Int, delay: Duration, reason: String)
    /// Resources were written.
    case progress(Progress)
    /// Content Steering acted (pathway IDs only).
    case steering(SteeringEvent)
    /// Something the job works around and the user should know (one sentence).
    case warning(String)
    /// What only this kind of job reports.
    case job(Notice)
}

extension JobEvent: Equatable where Plan: Equatable, Progress: Equatable, Notice: Equatable {}
