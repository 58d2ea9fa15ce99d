/// Value transformations a packager needs of a multivariant playlist.
extension MultivariantPlaylist {
    /// The playlist with every URI — variants, I-frame variants, renditions, session data,
    /// session keys and the steering server — replaced by `transform` of the URI and its role.
    /// - Throws: whatever `transform` throws.
    public func rewritingURIs<Failure: Error>(_ transform: (String, PlaylistURIRole) throws(Failure) -> String) throws(Failure) -> MultivariantPlaylist {
        var result = self
        for index in result.variants.indices { result.variants[index].uri = try transform(result.variants[index].uri, .variant) }
        for index in result.iFrameVariants.indices {
            result.iFrameVariants[index].uri = try transform(result.iFrameVariants[index].uri, .iFrameVariant)
        }
        for index in result.renditions.indices {
            if let uri = result.renditions[index].uri { result.renditions[index].uri = try transform(uri, .rendition) }
        }
        for index in result.sessionData.indices {
            if let uri = result.sessionData[index].uri { result.sessionData[index].uri = try transform(uri, .sessionData) }
        }
        for index in result.sessionKeys.indices {
            if let uri = result.sessionKeys[index].uri { result.sessionKeys[index].uri = try transform(uri, .key) }
        }
        if let server = result.contentSteering?.serverURI {
            result.contentSteering?.serverURI = try transform(server, .steeringServer)
        }
        return result
    }

    /// The playlist without EXT-X-SESSION-KEY (what a package of decrypted media declares).
    public func removingSessionKeys() -> MultivariantPlaylist {
        var result = self
        result.sessionKeys = []
        return result
    }

    /// The playlist without EXT-X-DEFINE: its values are already substituted, so the text stands
    /// alone. Refused when the text would not read back the same without the definitions — a
    /// value that holds a `{$name}` reference (it came from a variable's value) would be
    /// substituted by a parser.
    /// - Throws: `undefined-variable` naming the reference.
    /// - Complexity: O(n): the playlist is written and read back once.
    public func removingDefines() throws(PlaylistError) -> MultivariantPlaylist {
        guard !defines.isEmpty else { return self }
        var result = self
        result.defines = []
        let text = PlaylistWriter().write(.multivariant(result))
        let parsed = try PlaylistParser().parse(Array(text.utf8))
        guard parsed.playlist == .multivariant(result) else {
            throw PlaylistError(.undefinedVariable, "Without its EXT-X-DEFINE tags the playlist would read back differently: a substituted value holds a variable reference.")
        }
        return result
    }
}
