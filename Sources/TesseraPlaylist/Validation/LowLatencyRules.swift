import TesseraSupport
/// Low-Latency HLS rules (RFC 8216bis §4.4.3.7-8, §4.4.4.9, §4.4.5.3-4).
enum LowLatencyRules {
    /// Checks `p`; `firstPart` is its first segment's first partial segment, found by the media
    /// playlist rules' pass.
    static func check(_ p: MediaPlaylist, firstPart segmentPart: PartialSegment?, _ context: inout RuleContext) {
        let firstPart = segmentPart ?? p.pendingParts.first
        if p.partInformation == nil, let part = firstPart {
            context.add(.partWithoutPartInformation, .error, part.line, "4.4.3.7", "EXT-X-PART needs EXT-X-PART-INF in the playlist.")
        }
        if let info = p.partInformation {
            let target = info.partTarget
            func check(_ parts: [PartialSegment]) {
                for (index, part) in parts.enumerated() {
                    if part.duration > target {
                        context.add(.partExceedsPartTarget, .error, part.line, "4.4.4.9",
                                    "EXT-X-PART DURATION \(part.durationText) exceeds PART-TARGET \(target).")
                    }
                    let isLast = index == parts.count - 1
                    let nextIsGap = index + 1 < parts.count && parts[index + 1].isGap
                    let exempt = part.isIndependent || part.isGap || nextIsGap || isLast
                    if !exempt, part.duration < 0.85 * target {
                        context.add(.partTooShort, .error, part.line, "4.4.4.9",
                                    "EXT-X-PART DURATION \(part.durationText) is below 0.85 × PART-TARGET \(target).")
                    }
                }
            }
            for record in p.segments.packed where record.extras != 0 {
                if let parts = p.segments.parts(of: record) { check(parts) }
            }
            check(p.pendingParts)
            if let partHoldBack = p.serverControl?.partHoldBack {
                if partHoldBack < 2 * target {
                    context.add(.partHoldBackTooSmall, .error, p.serverControl?.line, "4.4.3.8",
                                "PART-HOLD-BACK \(partHoldBack) is below 2 × PART-TARGET (\(2 * target)).")
                }
            } else {
                context.add(.partHoldBackMissing, .error, info.line, "4.4.3.8",
                            "EXT-X-PART-INF needs EXT-X-SERVER-CONTROL with PART-HOLD-BACK.")
            }
        }
        if let control = p.serverControl, let duration = p.targetDuration {
            let target = Double(duration)
            if let holdBack = control.holdBack, holdBack < 3 * target {
                context.add(.holdBackTooSmall, .error, control.line, "4.4.3.8",
                            "HOLD-BACK \(holdBack) is below 3 × EXT-X-TARGETDURATION (\(3 * target)).")
            }
            if let skip = control.canSkipUntil, skip < 6 * target {
                context.add(.skipBoundaryTooSmall, .error, control.line, "4.4.3.8",
                            "CAN-SKIP-UNTIL \(skip) is below 6 × EXT-X-TARGETDURATION (\(6 * target)).")
            }
        }
        if let control = p.serverControl, control.canSkipDateRanges, control.canSkipUntil == nil {
            context.add(.skipDateRangesWithoutSkip, .error, control.line, "4.4.3.8", "CAN-SKIP-DATERANGES needs CAN-SKIP-UNTIL.")
        }
        if p.hasEndList, let hint = p.preloadHints.first {
            context.add(.preloadHintWithEndList, .error, hint.line, "4.4.5.3", "EXT-X-PRELOAD-HINT must not appear with EXT-X-ENDLIST.")
        }
        var hintTypes = Set<String>()
        for hint in p.preloadHints where !hintTypes.insert(hint.type.description).inserted {
            context.add(.preloadHintDuplicateType, .warning, hint.line, "6.2.6",
                        "A second EXT-X-PRELOAD-HINT of TYPE=\(hint.type); clients use only the first.")
        }
        for report in p.renditionReports {
            if let uri = report.uri, uri.contains("://") {
                context.add(.renditionReportAbsoluteURI, .error, report.line, "4.4.5.4",
                            "EXT-X-RENDITION-REPORT URI \(URLRedaction.redact(uri: uri)) must be relative to this playlist.")
            }
        }
    }
}
