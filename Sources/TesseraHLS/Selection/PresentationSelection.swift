/// What a `SelectionPolicy` chose from a multivariant playlist, and why: indices into its
/// `variants`, `renditions` and `iFrameVariants`, every choice and every refusal explained.
public struct PresentationSelection: Hashable, Sendable {
    /// A variant the policy could not take, and why.
    public struct Refusal: Hashable, Sendable {
        /// Its index in `variants`.
        public let variant: Int
        /// Why ("HDCP-LEVEL TYPE-1 is above the supported NONE").
        public let reason: String
    }

    /// The pathway chosen on.
    public let pathway: String
    /// The chosen variant, nil when none qualifies.
    public let variant: Int?
    /// The chosen audio renditions (those without a URI are in the variant's own stream).
    public let audio: [Int]
    /// The chosen subtitle renditions.
    public let subtitles: [Int]
    /// The chosen alternative video renditions (those without a URI are the variant's stream).
    public var video: [Int] = []
    /// The I-frame variants of the pathway the capabilities allow, lowest BANDWIDTH first.
    public let iFrameVariants: [Int]
    /// Why each choice was made, in order.
    public let reasons: [String]
    /// The variants of the pathway that could not be played.
    public let refusals: [Refusal]
}
