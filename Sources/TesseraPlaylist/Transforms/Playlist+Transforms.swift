extension Playlist {
    /// The playlist without EXT-X-DEFINE: values are already substituted, so the text written
    /// stands alone (what a package holds).
    /// - Throws: `undefined-variable` when a substituted value holds a variable reference.
    public func removingDefines() throws(PlaylistError) -> Playlist {
        switch self {
        case .media(let media): .media(try media.removingDefines())
        case .multivariant(let multivariant): .multivariant(try multivariant.removingDefines())
        }
    }

    /// Checks that the playlist, written, reads back as itself without any variable: used when
    /// EXT-X-DEFINE tags are dropped from an already substituted playlist. A value that holds a
    /// `{$name}` reference (it came from a variable's value) would be substituted by a parser.
    /// - Throws: `undefined-variable`.
    /// - Complexity: O(n): the playlist is written and read back once.
    func checkStandsAlone() throws(PlaylistError) {
        let text = PlaylistWriter().write(self)
        guard try PlaylistParser().parse(Array(text.utf8)).playlist == self else {
            throw PlaylistError(.undefinedVariable, "Without its EXT-X-DEFINE tags the playlist would read back differently: a substituted value holds a variable reference.")
        }
    }
}
