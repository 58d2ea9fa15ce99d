import TesseraPlaylist

extension LiveReloader {
    /// A rendition followed instead of the variant: the one of this TYPE and NAME in the group
    /// the chosen variant names (a NAME is unique within a group). On a steered presentation the
    /// follow fails over to the rendition of the same STABLE-RENDITION-ID in the group of the
    /// equivalent variant on the next pathway; without a STABLE-RENDITION-ID it stays where it is.
    public struct RenditionChoice: Sendable, Hashable {
        /// AUDIO, SUBTITLES or VIDEO.
        public let type: Rendition.MediaType
        /// Its NAME.
        public let name: String

        /// The rendition of `type` named `name`.
        public init(type: Rendition.MediaType, name: String) {
            self.type = type
            self.name = name
        }

        /// The group `variant` names for this type.
        func group(of variant: Variant) -> String? {
            switch type {
            case .audio: variant.audio
            case .video: variant.video
            case .subtitles: variant.subtitles
            case .closedCaptions: nil
            }
        }
    }
}
