/// What to choose from a presentation: a variant by preference among those the capabilities
/// allow on the pathway, and audio and subtitle renditions from its groups.
public struct SelectionPolicy: Hashable, Sendable {
    /// Which variant (the `--variant` forms).
    public var variant: VariantPreference
    /// What the player can play.
    public var capabilities: PlaybackCapabilities
    /// Audio renditions from the variant's AUDIO group.
    public var audio: RenditionPolicy
    /// Subtitle renditions from the variant's SUBTITLES group.
    public var subtitles: RenditionPolicy
    /// The pathway to choose on; nil: the steering PATHWAY-ID, else the first pathway listed.
    public var pathway: String?

    /// A policy; by default the best variant anything can play, the automatic renditions.
    public init(variant: VariantPreference = .best, capabilities: PlaybackCapabilities = PlaybackCapabilities(),
                audio: RenditionPolicy = RenditionPolicy(), subtitles: RenditionPolicy = RenditionPolicy(), pathway: String? = nil) {
        self.variant = variant
        self.capabilities = capabilities
        self.audio = audio
        self.subtitles = subtitles
        self.pathway = pathway
    }
}
