/// The single-playlist rules: every MUST / MUST NOT (and a few SHOULDs) that one playlist can show
/// on its own, checked over the typed model. Catalogued in docs/DIAGNOSTICS.md. O(n).
enum PlaylistValidator {
    static func validate(_ playlist: Playlist) -> [Diagnostic] {
        var context = RuleContext()
        switch playlist {
        case .media(let media):
            // One pass over the segments: the low-latency rules take the first part it found.
            let facts = MediaPlaylistRules.check(media, &context)
            LowLatencyRules.check(media, firstPart: facts.firstPart, &context)
            DateRangeRules.check(media, &context)
        case .multivariant(let multivariant):
            MultivariantRules.check(multivariant, &context)
        }
        return context.diagnostics
    }

    /// Reports a feature that needs a higher version than declared.
    static func require(_ needed: Int, for feature: String, declared: Int?, line: SourceLine?, _ context: inout RuleContext) {
        guard (declared ?? 1) < needed else { return }
        context.add(.versionTooLow, .error, line, "8",
                    "\(feature) needs EXT-X-VERSION \(needed) or higher; the playlist declares \(declared.map(String.init) ?? "none").")
    }

    /// True when an ISO 8601 date-time names its time zone.
    /// Works on UTF-8 bytes: it runs for every segment's date.
    static func hasZone(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let t = bytes.firstIndex(where: { $0 == 0x54 || $0 == 0x74 }) else { return false }
            return bytes[t...].contains { $0 == 0x5A || $0 == 0x7A || $0 == 0x2B || $0 == 0x2D }
        }
    }
}
