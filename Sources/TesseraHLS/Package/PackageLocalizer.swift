import TesseraPlaylist
import TesseraSupport

/// The local playlists of a package, written from the source's model: relative URIs only, no key
/// (media is stored decrypted), no EXT-X-DEFINE (the resolved text is written), nothing that
/// names a server — no parts, preload hints, rendition reports, server control, steering,
/// session keys, session data by URI or interstitial assets that are not local.
package enum PackageLocalizer {
    /// The text of `playlist` with each segment and map URI replaced by `uris[uri]`.
    /// - Throws: as `media(_:localURI:what:)`.
    package static func media(_ playlist: MediaPlaylist, uris: [String: String], what: String) throws(HLSError) -> String {
        try media(playlist, localURI: { uris[$0] }, what: what)
    }

    /// The text of `playlist` with each segment and map URI replaced by `localURI(uri)`.
    /// - Throws: `invalid-playlist` when a URI has no local name (`localURI` gives nil) or a
    ///   substituted value still holds a variable reference (`{$…}`); `what` names the playlist.
    package static func media(_ playlist: MediaPlaylist, localURI: (String) -> String?, what: String) throws(HLSError) -> String {
        var local = playlist.removingKeys()
        local.partInformation = nil
        local.serverControl = nil
        local.skip = nil
        local.preloadHints = []
        local.renditionReports = []
        local.pendingParts = []
        for index in local.segments.indices where !local.segments[index].parts.isEmpty { local.segments[index].parts = [] }
        // Interstitials stay only when their assets are local (`uris` names them).
        local.dateRanges.removeAll { range in
            range.clientAttributes.contains { attribute in
                guard PlaylistURIRole.interstitialAttributes.contains(attribute.name) else { return false }
                guard case .string(let uri) = attribute.value else { return true }
                return localURI(uri) == nil
            }
        }
        func unplaced(_ role: PlaylistURIRole) -> HLSError {
            HLSError(.invalidPlaylist, "\(what): a \(role) URI has no file in the package.")
        }
        guard local.defines.isEmpty else {
            // Standing without EXT-X-DEFINE is proven on the rewritten model: make it.
            local = try local.rewritingURIs { uri, role throws(HLSError) -> String in
                guard let local = localURI(uri) else { throw unplaced(role) }
                return local
            }
            return try standalone(.media(local), what: what)
        }
        // Written as rewritten, without a rewritten copy of every segment.
        var missing: PlaylistURIRole?
        let text = PlaylistWriter().write(local) { uri, role in
            if let local = localURI(uri) { return local }
            if missing == nil { missing = role }
            return uri
        }
        if let missing { throw unplaced(missing) }
        return text
    }

    /// The package's `master.m3u8`: the chosen variant, the chosen renditions (and the renditions
    /// of its groups that have no URI — they are in the variant's own stream — and its
    /// closed-caption renditions), the chosen I-frame streams; `uris` maps each kept playlist
    /// to its local path. An audio or video group left with no DEFAULT=YES member gets its first
    /// one as default, so a player plays it without being told.
    package static func master(_ source: MultivariantPlaylist, variant: Int, renditions: [Int], iFrameVariants: [Int],
                       uris: [PackagePlaylistKey: String]) throws(HLSError) -> String {
        var master = source
        var chosen = source.variants[variant]
        chosen.uri = uris[.variant(variant)] ?? chosen.uri
        chosen.pathwayId = nil
        var kept: [Rendition] = []
        for (index, rendition) in source.renditions.enumerated() {
            let inGroup: Bool = switch rendition.type {
            case .audio: rendition.groupId == chosen.audio
            case .video: rendition.groupId == chosen.video
            case .subtitles: rendition.groupId == chosen.subtitles
            case .closedCaptions: chosen.closedCaptions == .group(rendition.groupId)
            }
            guard inGroup else { continue }
            if let local = uris[.rendition(index)], renditions.contains(index) {
                var packaged = rendition
                packaged.uri = local
                kept.append(packaged)
            } else if rendition.uri == nil {
                kept.append(rendition)
            }
        }
        // An audio or video group needs a default to be played without a choice; subtitles and
        // captions without one stay off, as the source has them.
        for type in [Rendition.MediaType.audio, .video] where !kept.contains(where: { $0.type == type && $0.isDefault }) {
            if let first = kept.firstIndex(where: { $0.type == type }) { kept[first].isDefault = true }
        }
        func has(_ type: Rendition.MediaType, _ group: String?) -> Bool { kept.contains { $0.type == type && $0.groupId == group } }
        if !has(.audio, chosen.audio) { chosen.audio = nil }
        if !has(.video, chosen.video) { chosen.video = nil }
        if !has(.subtitles, chosen.subtitles) { chosen.subtitles = nil }
        if case .group(let group) = chosen.closedCaptions, !has(.closedCaptions, group) { chosen.closedCaptions = nil }
        master.variants = [chosen]
        master.renditions = kept
        master.iFrameVariants = iFrameVariants.compactMap { index -> Variant? in
            guard let local = uris[.iFrameVariant(index)] else { return nil }
            var stream = source.iFrameVariants[index]
            stream.uri = local
            stream.pathwayId = nil
            return stream
        }
        master.sessionKeys = []
        master.contentSteering = nil
        master.sessionData = source.sessionData.filter { $0.uri == nil }
        return try standalone(.multivariant(master), what: PackageManifest.entryName)
    }

    /// The text of `playlist` without EXT-X-DEFINE.
    private static func standalone(_ playlist: Playlist, what: String) throws(HLSError) -> String {
        do { return PlaylistWriter().write(try playlist.removingDefines()) } catch {
            throw HLSError(.invalidPlaylist, "\(what) cannot be written without EXT-X-DEFINE: \(error.message)", cause: error)
        }
    }
}
