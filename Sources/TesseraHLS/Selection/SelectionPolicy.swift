/// What to choose from a presentation: a variant by preference among those the capabilities
/// allow on the pathway, and audio, subtitle and alternative video renditions from its groups.
public struct SelectionPolicy: Hashable, Sendable {
    /// Which variant (the `--variant` forms).
    public var variant: VariantPreference
    /// What the player can play.
    public var capabilities: PlaybackCapabilities
    /// Audio renditions from the variant's AUDIO group.
    public var audio: RenditionPolicy
    /// Subtitle renditions from the variant's SUBTITLES group.
    public var subtitles: RenditionPolicy
    /// Alternative video renditions (another angle, a sign-language view) from the variant's
    /// VIDEO group, taken beside the variant's own stream. Default none: a player shows the
    /// variant's stream until its viewer picks another.
    public var video: RenditionPolicy
    /// The pathway to choose on; nil: the steering PATHWAY-ID, else the first pathway listed.
    public var pathway: String?

    /// A policy; by default the best variant anything can play, the automatic renditions.
    public init(variant: VariantPreference = .best, capabilities: PlaybackCapabilities = PlaybackCapabilities(),
                audio: RenditionPolicy = RenditionPolicy(), subtitles: RenditionPolicy = RenditionPolicy(),
                video: RenditionPolicy = RenditionPolicy(.none), pathway: String? = nil) {
        self.variant = variant
        self.capabilities = capabilities
        self.audio = audio
        self.subtitles = subtitles
        self.video = video
        self.pathway = pathway
    }
}
