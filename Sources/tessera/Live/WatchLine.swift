#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraLive
import TesseraPlaylist
import TesseraSupport

/// One line of `tessera watch` per snapshot: text for people, or a JSON object.
enum WatchLine {
    /// The last complete segment's media sequence number.
    static func msn(_ playlist: MediaPlaylist) -> UInt64? { playlist.segments.last?.mediaSequence }

    /// The index of the last part of the segment after it (nil without parts being published).
    static func part(_ playlist: MediaPlaylist) -> Int? { playlist.pendingParts.isEmpty ? nil : playlist.pendingParts.count - 1 }

    /// Seconds from the live edge — the end of the last segment (by its PROGRAM-DATE-TIME) and
    /// the parts listed after it — to now, when known.
    static func latency(_ playlist: MediaPlaylist) -> Double? {
        guard let last = playlist.segments.last, let start = last.programDateTime?.secondsSince1970 else { return nil }
        let parts = playlist.pendingParts.reduce(0) { $0 + $1.duration }
        return Date().timeIntervalSince1970 - (start + last.duration + parts)
    }

    static func text(_ snapshot: LiveSnapshot, findings: [LiveFinding]) -> String {
        let playlist = snapshot.playlist
        var parts = ["msn \(msn(playlist).map(String.init) ?? "-")", "part \(part(playlist).map(String.init) ?? "-")",
                     "\(playlist.segments.count) segments", snapshot.mode.rawValue]
        if let latency = latency(playlist) { parts.append("latency \(FixedDecimal.format(latency, digits: 1)) s") }
        if snapshot.coalesced > 1 { parts.append("\(snapshot.coalesced) reloads") }
        if !snapshot.missed.isEmpty { parts.append("missed " + snapshot.missed.map { "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")) }
        if let pathway = snapshot.pathway { parts.append("pathway \(pathway)") }
        if playlist.hasEndList { parts.append("ENDLIST") }
        parts.append(findings.isEmpty ? "healthy" : findings.map { "\($0.severity) \($0.code)" }.joined(separator: ", "))
        return parts.joined(separator: "  ")
    }

    private struct Document: Encodable {
        struct Finding: Encodable {
            let code: String
            let severity: String
            let message: String
        }
        let time: String
        let msn: UInt64?
        let part: Int?
        let mode: String
        let segments: Int
        let endList: Bool
        let coalesced: Int
        let missed: [[UInt64]]
        let latency: Double?
        let pathway: String?
        let health: [Finding]

        private enum Key: String, CodingKey { case time, msn, part, mode, segments, endList, coalesced, missed, latency, pathway, health }

        /// Every key, `null` for what is not known (`part` without parts, `latency` without a date,
        /// `pathway` when the presentation does not steer).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(time, forKey: .time)
            try container.encode(msn, forKey: .msn)
            try container.encode(part, forKey: .part)
            try container.encode(mode, forKey: .mode)
            try container.encode(segments, forKey: .segments)
            try container.encode(endList, forKey: .endList)
            try container.encode(coalesced, forKey: .coalesced)
            try container.encode(missed, forKey: .missed)
            try container.encode(latency, forKey: .latency)
            try container.encode(pathway, forKey: .pathway)
            try container.encode(health, forKey: .health)
        }
    }

    /// A line of health findings due between snapshots (on the timer, or at a refused delta).
    static func text(_ findings: [LiveFinding]) -> String {
        "health  " + findings.map { "\($0.severity) \($0.code): \($0.message)" }.joined(separator: "  ")
    }

    private struct FindingsDocument: Encodable {
        let time: String
        let health: [Document.Finding]
    }

    /// A JSON line of health findings due between snapshots: `{"time", "health"}` only.
    static func json(_ findings: [LiveFinding]) -> String {
        JSONText.of(FindingsDocument(time: Date().ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
                                     health: findings.map { .init(code: $0.code.rawValue, severity: $0.severity.rawValue, message: $0.message) }))
    }

    static func json(_ snapshot: LiveSnapshot, findings: [LiveFinding]) -> String {
        let playlist = snapshot.playlist
        let document = Document(time: Date().ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), msn: msn(playlist), part: part(playlist), mode: snapshot.mode.rawValue,
                                segments: playlist.segments.count, endList: playlist.hasEndList, coalesced: snapshot.coalesced,
                                missed: snapshot.missed.map { [$0.lowerBound, $0.upperBound] }, latency: latency(playlist), pathway: snapshot.pathway,
                                health: findings.map { .init(code: $0.code.rawValue, severity: $0.severity.rawValue, message: $0.message) })
        return JSONText.of(document)
    }
}
