/// Multivariant playlists (RFC 8216bis §4.4.6).
extension PlaylistWriter {
    func writeMultivariant(_ playlist: MultivariantPlaylist, into lines: inout LineBuffer) {
        writeCommon(version: playlist.version, independent: playlist.hasIndependentSegments, start: playlist.start,
                    defines: playlist.defines, into: &lines)
        if let steering = playlist.contentSteering {
            var attributes = AttributeListText()
            attributes.quoted("SERVER-URI", steering.serverURI)
            attributes.quoted("PATHWAY-ID", steering.pathwayId)
            attributes.unknown(steering.unknownAttributes)
            lines.appendAttributes("#EXT-X-CONTENT-STEERING:", attributes.text)
        }
        for data in playlist.sessionData {
            var attributes = AttributeListText()
            attributes.quoted("DATA-ID", data.dataId)
            attributes.quoted("VALUE", data.value)
            attributes.quoted("URI", data.uri)
            if data.format == .raw { attributes.enumerated("FORMAT", "RAW") }
            attributes.quoted("LANGUAGE", data.language)
            attributes.unknown(data.unknownAttributes)
            lines.appendAttributes("#EXT-X-SESSION-DATA:", attributes.text)
        }
        for key in playlist.sessionKeys { lines.appendAttributes("#EXT-X-SESSION-KEY:", keyAttributes(key)) }
        for rendition in playlist.renditions { lines.appendAttributes("#EXT-X-MEDIA:", renditionAttributes(rendition)) }
        for tag in playlist.unknownTags { lines.append(tag.text) }
        for variant in playlist.variants {
            lines.appendAttributes("#EXT-X-STREAM-INF:", variantAttributes(variant, iFrame: false))
            lines.appendURI(variant.uri)
        }
        for variant in playlist.iFrameVariants {
            lines.appendAttributes("#EXT-X-I-FRAME-STREAM-INF:", variantAttributes(variant, iFrame: true))
        }
    }

    private func renditionAttributes(_ rendition: Rendition) -> String {
        var attributes = AttributeListText()
        attributes.enumerated("TYPE", rendition.type.description)
        attributes.quoted("GROUP-ID", rendition.groupId)
        attributes.quoted("NAME", rendition.name)
        attributes.quoted("LANGUAGE", rendition.language)
        attributes.quoted("ASSOC-LANGUAGE", rendition.associatedLanguage)
        attributes.quoted("STABLE-RENDITION-ID", rendition.stableRenditionId)
        attributes.yes("DEFAULT", rendition.isDefault)
        attributes.yes("AUTOSELECT", rendition.isAutoselect)
        attributes.yes("FORCED", rendition.isForced)
        attributes.quoted("INSTREAM-ID", rendition.instreamId)
        attributes.integer("BIT-DEPTH", rendition.bitDepth)
        attributes.integer("SAMPLE-RATE", rendition.sampleRate)
        attributes.quoted("CHARACTERISTICS", rendition.characteristics)
        attributes.quoted("CHANNELS", rendition.channels)
        attributes.quoted("URI", rendition.uri)
        attributes.unknown(rendition.unknownAttributes)
        return attributes.text
    }

    private func variantAttributes(_ variant: Variant, iFrame: Bool) -> String {
        var attributes = AttributeListText()
        attributes.integer("BANDWIDTH", variant.bandwidth)
        attributes.integer("AVERAGE-BANDWIDTH", variant.averageBandwidth)
        attributes.decimal("SCORE", variant.score)
        attributes.quoted("CODECS", variant.codecs)
        attributes.quoted("SUPPLEMENTAL-CODECS", variant.supplementalCodecs)
        attributes.enumerated("RESOLUTION", variant.resolution?.description)
        attributes.decimal("FRAME-RATE", variant.frameRate)
        attributes.enumerated("HDCP-LEVEL", variant.hdcpLevel?.description)
        attributes.quoted("ALLOWED-CPC", variant.allowedCPC)
        attributes.enumerated("VIDEO-RANGE", variant.videoRange?.description)
        attributes.quoted("REQ-VIDEO-LAYOUT", variant.requiredVideoLayout)
        attributes.quoted("STABLE-VARIANT-ID", variant.stableVariantId)
        attributes.quoted("AUDIO", variant.audio)
        attributes.quoted("VIDEO", variant.video)
        attributes.quoted("SUBTITLES", variant.subtitles)
        switch variant.closedCaptions {
        case .group(let group): attributes.quoted("CLOSED-CAPTIONS", group)
        case .none?: attributes.enumerated("CLOSED-CAPTIONS", "NONE")
        case nil: break
        }
        attributes.quoted("PATHWAY-ID", variant.pathwayId)
        if iFrame { attributes.quoted("URI", variant.uri) }
        attributes.unknown(variant.unknownAttributes)
        return attributes.text
    }
}
