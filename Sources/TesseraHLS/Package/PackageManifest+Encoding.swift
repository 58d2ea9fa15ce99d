#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PackageManifest {
    /// The JSON text: keys sorted, indented, one trailing newline — the same manifest gives the
    /// same bytes, those `JSONEncoder` makes of it (sorted keys, pretty-printed, slashes
    /// unescaped). `files` — a file a segment, nearly all of a long package's manifest — is
    /// written straight into the text; the rest goes through `JSONEncoder`, which held an
    /// intermediate value of every file besides the text (20 MB at 50,000 files, the peak of such
    /// a package's whole run).
    /// - Throws: `HLSError` `.invalidPlaylist` when a value cannot be written as JSON (a gap
    ///   duration that is not finite) — never an empty or partial manifest.
    public func encoded() throws(HLSError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let rest: Data
        do { rest = try encoder.encode(PackageManifest(self, files: [])) } catch {
            throw HLSError(.invalidPlaylist, "The package manifest cannot be written as JSON: \(error)", cause: error)
        }
        // The top-level key is the only one a line break and two spaces come before, and a
        // string's line breaks are escaped: the empty array is found once, where it stands.
        let empty = Array("\n  \"files\" : [\n\n  ]".utf8)
        guard let place = rest.firstRange(of: empty) else {
            throw HLSError(.invalidPlaylist, "The package manifest's JSON has no files array where one belongs.")
        }
        var text: [UInt8] = []
        text.reserveCapacity(rest.count + files.count * 200 + 1)
        text.append(contentsOf: rest[..<place.lowerBound])
        text.append(contentsOf: "\n  \"files\" : [".utf8)
        if files.isEmpty {
            text.append(contentsOf: "\n\n  ]".utf8)
        } else {
            for (index, file) in files.enumerated() {
                text.append(contentsOf: (index == 0 ? "\n    {" : ",\n    {").utf8)
                Self.member("path", file.path, into: &text, first: true)
                Self.member("role", file.role.rawValue, into: &text)
                Self.member("sha256", file.sha256, into: &text)
                text.append(contentsOf: ",\n      \"size\" : \(file.size)".utf8)
                if let track = file.track { Self.member("track", track, into: &text) }
                text.append(contentsOf: "\n    }".utf8)
            }
            text.append(contentsOf: "\n  ]".utf8)
        }
        text.append(contentsOf: rest[place.upperBound...])
        text.append(0x0A)
        return text
    }

    /// The same manifest with other `files`, as they are (not sorted again).
    private init(_ manifest: PackageManifest, files: [File]) {
        schema = manifest.schema
        schemaVersion = manifest.schemaVersion
        kind = manifest.kind
        entry = manifest.entry
        tracks = manifest.tracks
        self.files = files
        gaps = manifest.gaps
        evictions = manifest.evictions
    }

    /// Lower-case hexadecimal digits, as `JSONEncoder` writes `\u00XX`.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `"key" : "value"` as a member of a file's object, the value escaped as `JSONEncoder` does.
    private static func member(_ key: String, _ value: String, into text: inout [UInt8], first: Bool = false) {
        text.append(contentsOf: (first ? "\n      \"" : ",\n      \"").utf8)
        text.append(contentsOf: key.utf8)
        text.append(contentsOf: "\" : \"".utf8)
        for byte in value.utf8 {
            switch byte {
            case 0x22: text.append(contentsOf: [0x5C, 0x22])
            case 0x5C: text.append(contentsOf: [0x5C, 0x5C])
            case 0x08: text.append(contentsOf: [0x5C, 0x62])
            case 0x0C: text.append(contentsOf: [0x5C, 0x66])
            case 0x0A: text.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: text.append(contentsOf: [0x5C, 0x72])
            case 0x09: text.append(contentsOf: [0x5C, 0x74])
            case 0x00..<0x20: text.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            default: text.append(byte)
            }
        }
        text.append(0x22)
    }
}
