import TesseraPlaylist

/// The cross-playlist rules (draft-pantos-hls-rfc8216bis §6.2.4 and Appendix D of the house
/// reference): pure, over the multivariant playlist and the facts of each child.
package enum PresentationRules {
    /// The cross-playlist diagnostics of a presentation whose children are `playlists`.
    package static func check(_ multivariant: MultivariantPlaylist, _ playlists: [GraphPlaylist]) -> [Diagnostic] {
        var context = PresentationRuleContext(multivariant: multivariant, playlists: playlists)
        PresentationTimingRules.check(&context)
        PresentationMetadataRules.check(&context)
        PresentationStructureRules.check(&context)
        PresentationPathwayRules.check(&context)
        return context.diagnostics
    }
}
