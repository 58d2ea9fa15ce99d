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

    /// The playlist without EXT-X-DEFINE (values are already substituted; see
    /// `Playlist.removingDefines()`).
    /// - Throws: `undefined-variable` when a substituted value holds a variable reference.
    public func removingDefines() throws(PlaylistError) -> MultivariantPlaylist {
        guard !defines.isEmpty else { return self }
        var result = self
        result.defines = []
        try Playlist.multivariant(result).checkStandsAlone()
        return result
    }
}
