/// Syntax the spec prescribes inside single attribute values (RFC 8216bis §4.4.4-4.4.6).
enum AttributeSyntaxRules {
    static func check(keys: [SegmentKey], _ context: inout RuleContext) {
        for key in keys {
            if let versions = key.keyFormatVersions,
               !versions.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({ isPositiveInteger($0) }) {
                context.add(.keyFormatVersionsSyntax, .error, key.line, "4.4.4.4",
                            "KEYFORMATVERSIONS \"\(versions)\" must be positive integers joined by '/'.")
            }
        }
    }

    static func check(_ p: MultivariantPlaylist, _ context: inout RuleContext) {
        check(keys: p.sessionKeys, &context)
        for r in p.renditions {
            if let channels = r.channels, !isChannels(channels) {
                context.add(.channelsSyntax, .error, r.line, "4.4.6.1",
                            "CHANNELS \"\(channels)\" must be a channel count, then optional coding and usage lists, joined by '/'.")
            }
            if let id = r.instreamId, !isInstreamId(id, closedCaptions: r.type == .closedCaptions) {
                context.add(.instreamIdValue, .error, r.line, "4.4.6.1",
                            r.type == .closedCaptions ? "INSTREAM-ID \"\(id)\" must be CC1-CC4 or SERVICE1-SERVICE63."
                                                      : "INSTREAM-ID \"\(id)\" may use only A-Z, a-z, 0-9 and '.'.")
            }
        }
        for v in p.variants + p.iFrameVariants {
            if let layout = v.requiredVideoLayout, !isVideoLayout(layout) {
                context.add(.videoLayoutSyntax, .error, v.line, "4.4.6.2",
                            "REQ-VIDEO-LAYOUT \"\(layout)\" has an empty entry or an unknown specifier; clients ignore the variant.")
            }
            if let cpc = v.allowedCPC, !isAllowedCPC(cpc) {
                context.add(.allowedCPCSyntax, .error, v.line, "4.4.6.2", "ALLOWED-CPC must be KEYFORMAT:LABEL[/LABEL] entries joined by ','.")
            }
            if let score = v.score, score <= 0 {
                context.add(.scoreNotPositive, .error, v.line, "4.4.6.2", "SCORE must be positive.")
            }
        }
    }

    private static func isPositiveInteger(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && text.contains { $0 != "0" }
    }

    private static func isChannels(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 3, isPositiveInteger(parts[0]) else { return false }
        if parts.count == 3, parts[1].isEmpty { return false }
        return parts.dropFirst().allSatisfy { part in
            part.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { entry in
                !entry.isEmpty && entry.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
            }
        }
    }

    private static func isInstreamId(_ id: String, closedCaptions: Bool) -> Bool {
        guard closedCaptions else {
            return !id.isEmpty && id.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }
        }
        if ["CC1", "CC2", "CC3", "CC4"].contains(id) { return true }
        guard id.hasPrefix("SERVICE"), let n = Int(id.dropFirst(7)), !id.dropFirst(7).hasPrefix("0") else { return false }
        return (1...63).contains(n)
    }

    private static let layoutSpecifiers: Set<Substring> = ["CH-STEREO", "CH-MONO", "PROJ-RECT", "PROJ-EQUI", "PROJ-HEQU", "PROJ-PRIM", "PROJ-AIV"]

    private static func isVideoLayout(_ text: String) -> Bool {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
        return !entries.isEmpty && entries.allSatisfy { entry in
            let specifiers = entry.split(separator: "/", omittingEmptySubsequences: false)
            return !entry.isEmpty && specifiers.allSatisfy { layoutSpecifiers.contains($0) } && Set(specifiers).count == specifiers.count
        }
    }

    private static func isAllowedCPC(_ text: String) -> Bool {
        text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { entry in
            guard let colon = entry.firstIndex(of: ":") else { return false }
            let labels = entry[entry.index(after: colon)...].split(separator: "/", omittingEmptySubsequences: false)
            return colon != entry.startIndex && labels.allSatisfy { label in
                !label.isEmpty && label.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
            }
        }
    }
}
