import TesseraPlaylist
import TesseraSupport

/// An interstitial (`CLASS="com.apple.hls.interstitial"` EXT-X-DATERANGE, draft-pantos-hls-rfc8216bis
/// Appendix D) with its attributes typed. Values of the wrong type, unknown enumerated values and
/// a missing or doubled asset are listed in `problems` (the tag is read as far as it goes).
public struct Interstitial: Hashable, Sendable {
    /// The class that marks an interstitial.
    public static let dateRangeClass = "com.apple.hls.interstitial"

    /// Where the interstitial's content comes from.
    public enum Asset: Hashable, Sendable {
        /// X-ASSET-URI: one asset (an absolute URI).
        case uri(String)
        /// X-ASSET-LIST: a JSON asset list (absolute, or relative to the media playlist).
        case list(String)
    }

    /// X-SNAP values.
    public enum Snap: String, Hashable, Sendable { case out = "OUT", `in` = "IN" }
    /// X-RESTRICT values.
    public enum Restriction: String, Hashable, Sendable { case skip = "SKIP", jump = "JUMP" }
    /// X-TIMELINE-OCCUPIES values.
    public enum Occupancy: String, Hashable, Sendable { case point = "POINT", range = "RANGE" }
    /// X-TIMELINE-STYLE values.
    public enum Style: String, Hashable, Sendable { case highlight = "HIGHLIGHT", primary = "PRIMARY" }

    /// The date range's ID.
    public let id: String
    /// The asset, nil when the tag names none (or both: see `problems`).
    public let asset: Asset?
    /// CUE (PRE, POST, ONCE).
    public let cue: [String]
    /// X-RESUME-OFFSET, seconds.
    public let resumeOffset: Double?
    /// X-PLAYOUT-LIMIT, seconds.
    public let playoutLimit: Double?
    /// X-SNAP (unknown entries ignored).
    public let snap: Set<Snap>
    /// X-RESTRICT (unknown entries ignored).
    public let restrictions: Set<Restriction>
    /// X-CONTENT-MAY-VARY (default true).
    public let contentMayVary: Bool
    /// X-TIMELINE-OCCUPIES (default POINT).
    public let timelineOccupies: Occupancy
    /// X-TIMELINE-STYLE (default HIGHLIGHT).
    public let timelineStyle: Style
    /// X-SKIP-CONTROL-OFFSET, seconds.
    public let skipControlOffset: Double?
    /// X-SKIP-CONTROL-DURATION, seconds.
    public let skipControlDuration: Double?
    /// X-SKIP-CONTROL-LABEL-ID.
    public let skipControlLabelId: String?
    /// What is wrong with the tag, one sentence each.
    public let problems: [String]

    /// The interstitial of `range`, nil when its CLASS is not the interstitial class.
    public init?(_ range: DateRange) {
        guard range.dateRangeClass == Self.dateRangeClass else { return nil }
        var problems: [String] = []
        var strings: [String: String] = [:]
        var numbers: [String: Double] = [:]
        for attribute in range.clientAttributes {
            switch attribute.value {
            case .string(let text): strings[attribute.name] = text
            case .number(let value, _): numbers[attribute.name] = value
            case .hexadecimal: problems.append("\(attribute.name) is a hexadecimal sequence.")
            }
        }
        func number(_ name: String) -> Double? {
            if strings[name] != nil { problems.append("\(name) must be a number, not a quoted string.") }
            return numbers[name]
        }
        func string(_ name: String) -> String? {
            if numbers[name] != nil { problems.append("\(name) must be a quoted string, not a number.") }
            return strings[name]
        }
        id = range.id
        switch (string("X-ASSET-URI"), string("X-ASSET-LIST")) {
        case (let uri?, nil):
            asset = .uri(uri)
            if !uri.contains("://") { problems.append("X-ASSET-URI must be an absolute URI.") }
        case (nil, let list?): asset = .list(list)
        case (nil, nil):
            asset = nil
            problems.append("An interstitial needs X-ASSET-URI or X-ASSET-LIST.")
        case (_?, _?):
            asset = nil
            problems.append("An interstitial has both X-ASSET-URI and X-ASSET-LIST.")
        }
        cue = range.cue ?? []
        resumeOffset = number("X-RESUME-OFFSET")
        playoutLimit = number("X-PLAYOUT-LIMIT")
        if let limit = playoutLimit, limit < 0 { problems.append("X-PLAYOUT-LIMIT is negative.") }
        snap = Set(Self.list(string("X-SNAP")).compactMap(Snap.init(rawValue:)))
        restrictions = Set(Self.list(string("X-RESTRICT")).compactMap(Restriction.init(rawValue:)))
        contentMayVary = string("X-CONTENT-MAY-VARY") != "NO"
        timelineOccupies = string("X-TIMELINE-OCCUPIES").flatMap(Occupancy.init(rawValue:)) ?? .point
        timelineStyle = string("X-TIMELINE-STYLE").flatMap(Style.init(rawValue:)) ?? .highlight
        skipControlOffset = number("X-SKIP-CONTROL-OFFSET")
        skipControlDuration = number("X-SKIP-CONTROL-DURATION")
        skipControlLabelId = string("X-SKIP-CONTROL-LABEL-ID")
        if let label = skipControlLabelId,
           !label.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F || $0 == 0x2D }) {
            problems.append("X-SKIP-CONTROL-LABEL-ID may use only a-z, A-Z, _ and -.")
        }
        self.problems = problems
    }

    private static func list(_ text: String?) -> [String] {
        text.map { $0.split(separator: ",").map { ASCIIText.trimmingBlanks($0) } } ?? []
    }
}
