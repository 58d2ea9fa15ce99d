/// Deciding the playlist's kind and assembling the model (RFC 8216bis §4.1, §4.4.4, §4.4.6).
extension PlaylistBuilder {
    mutating func finish() throws(PlaylistError) -> Playlist {
        if let media = firstMediaTagLine, let multivariant = firstMultivariantTagLine {
            throw PlaylistError(.mixedPlaylist,
                                "The playlist mixes multivariant tags (line \(multivariant)) with media playlist tags (line \(media)).",
                                line: max(media, multivariant))
        }
        checkVariableVersion()
        if let pendingVariant {
            diagnostics.append(Diagnostic(.variantWithoutURI, .error, line: pendingVariant.line, section: "4.4.6.2",
                                          "EXT-X-STREAM-INF is not followed by a URI line; it is ignored."))
        }
        let isMedia = firstMediaTagLine != nil || !segments.isEmpty
        guard isMedia else {
            for define in variables.definitions where define.source == .imported {
                diagnostics.append(Diagnostic(.importInMultivariant, .error, line: define.line.number, section: "4.4.2.3",
                                              "EXT-X-DEFINE IMPORT must not appear in a multivariant playlist."))
            }
            return .multivariant(MultivariantPlaylist(
                version: version, hasIndependentSegments: hasIndependentSegments, start: start,
                defines: variables.definitions, variants: variants, iFrameVariants: iFrameVariants, renditions: renditions,
                sessionData: sessionData, sessionKeys: sessionKeys, contentSteering: contentSteering, unknownTags: unknownTags))
        }
        if targetDuration == nil {
            diagnostics.append(Diagnostic(.missingTargetDuration, .error, line: nil, section: "4.4.3.1",
                                          "The media playlist has no EXT-X-TARGETDURATION."))
        }
        if pending.duration != nil {
            report(.danglingSegmentTags, .error, "4.4.4.1", "The playlist ends with an EXTINF that no URI line follows.")
        }
        return .media(MediaPlaylist(
            version: version, targetDuration: targetDuration, mediaSequence: mediaSequence ?? 0,
            discontinuitySequence: discontinuitySequence ?? 0, playlistType: playlistType, hasEndList: hasEndList,
            isIFramesOnly: isIFramesOnly, hasIndependentSegments: hasIndependentSegments, start: start,
            defines: variables.definitions, partInformation: partInformation, serverControl: serverControl, skip: skip,
            segments: segments, pendingParts: pending.parts, dateRanges: dateRanges, preloadHints: preloadHints,
            renditionReports: renditionReports, unknownTags: unknownTags + pending.unknownTags))
    }

    /// Variable substitution needs version 8, QUERYPARAM version 11 (§8).
    private mutating func checkVariableVersion() {
        guard !variables.definitions.isEmpty || variables.hasSubstituted else { return }
        let needed = variables.definitions.contains { $0.source == .queryParameter } ? 11 : 8
        if (version ?? 1) < needed {
            let line = variables.definitions.first?.line.number
            diagnostics.append(Diagnostic(.variableVersion, .error, line: line, section: "8",
                                          "Variable substitution\(needed == 11 ? " with QUERYPARAM" : "") needs EXT-X-VERSION \(needed) or higher; the playlist declares \(version.map(String.init) ?? "none")."))
        }
    }
}
