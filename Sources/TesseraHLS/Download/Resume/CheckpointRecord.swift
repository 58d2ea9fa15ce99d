/// One line of a download's checkpoint log. The first line names the plan; every later line
/// records one resource written and made durable. No URL, key or query value is stored: the
/// plan, source and validator fields are SHA-256 digests.
struct CheckpointRecord: Codable, Sendable, Equatable {
    /// Header: the checkpoint format.
    var format: Int?
    /// Header: the plan fingerprint (hex).
    var plan: String?
    /// Resource: its index in the plan.
    var resource: Int?
    /// Resource: the bytes it put in the output.
    var bytes: UInt64?
    /// Resource: SHA-256 (hex) of the output from its first byte through this resource — the
    /// running file digest at this boundary, so one pass hashes every resource and the file.
    var sha256: String?
    /// Resource: digest of the URL it came from, without query (groups resources of one file).
    var source: String?
    /// Resource: digest of the response's ETag and Last-Modified, when it had any.
    var validator: String?
    /// Resource: the timestamp rebasing in force after it (`TSTimestampRebaser.run`), for
    /// MPEG-TS with discontinuities.
    var rebase: String?

    static let currentFormat = 1

    static func header(plan: String) -> CheckpointRecord {
        CheckpointRecord(format: currentFormat, plan: plan)
    }

    var isHeader: Bool { plan != nil }
}
