/// Names one stream of a job — a variant, a rendition, an I-frame stream — independently of any
/// URL, so a planned fetch can be moved to another pathway (Content Steering) and a checkpoint
/// can name what it holds without storing a URL. The text is chosen by the planner (a
/// `STABLE-VARIANT-ID`, a role and group, or `main` for a single stream).
public struct StreamIdentity: Hashable, Sendable, CustomStringConvertible {
    /// Stable text.
    public let rawValue: String

    /// Creates an identity from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The stream of a job that has only one.
    public static let main = StreamIdentity("main")

    public var description: String { rawValue }
}
