#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// The rules a plan checks before any media byte, one resource at a time: byte ranges that
/// cannot be requested, keys that cannot be used, URIs that cannot be fetched, and the layouts
/// its output cannot hold — one file holds one map, no gap and (fMP4) no discontinuity; a
/// package keeps files at their offsets, so a byte range cannot be decrypted into it.
package struct PlanChecker {
    /// What the plan's output is.
    package enum Layout: Sendable {
        /// One file of this container.
        case singleFile(DownloadPlan.Container)
        /// A package: each source file kept whole at its offsets (EXT-X-GAP segments are the
        /// planner's to skip).
        case package
        /// A recording: each resource its own file (so an encrypted byte range is stored
        /// decrypted, whole); EXT-X-GAP segments are the recorder's to keep.
        case recording
    }

    let baseURL: URL
    let source: String
    let layout: Layout
    let first: MediaSegment
    /// The distinct key URIs seen.
    package private(set) var keyURIs: Set<String> = []

    package init(baseURL: URL, source: String, layout: Layout, first: MediaSegment) {
        self.baseURL = baseURL
        self.source = source
        self.layout = layout
        self.first = first
    }

    /// Checks the initialization section.
    package mutating func check(map: MediaInitializationSection) throws(HLSError) {
        // The label is made only for a message: not once per segment of a long playlist.
        func label() -> String { "Initialization section (line \(map.line.number))" }
        if case .package = layout, map.byteRange != nil, !map.keys.isEmpty {
            throw encryptedRange(label())
        }
        try checkRange(map.byteRange, label: label)
        try checkURI(map.uri, label: label)
        try checkKeys(map.keys, label: label, hasSequenceIV: false)
    }

    /// Checks segment `position`.
    package mutating func check(_ segment: MediaSegment, at position: Int) throws(HLSError) {
        func label() -> String { "Segment \(position) (line \(segment.line.number))" }
        switch layout {
        case .singleFile(let container):
            guard !segment.isGap else {
                throw HLSError(.unsupported, "\(label()) of \(source) is marked EXT-X-GAP; a file with a hole is refused.")
            }
            guard container == .mpegTS || segment.discontinuitySequence == first.discontinuitySequence else {
                throw HLSError(.unsupported, "\(label()) of \(source) follows an EXT-X-DISCONTINUITY; fMP4 runs are not joined byte for byte (MPEG-TS runs are rebased): -o <name>.mp4 muxes them into one MP4.")
            }
            guard Self.sameMap(segment.map, first.map) else {
                throw HLSError(.unsupported, "\(label()) of \(source) changes the initialization section (EXT-X-MAP); one file holds one: -o <name>.mp4 muxes them into one MP4.")
            }
        case .package:
            guard segment.byteRange == nil || segment.keys.isEmpty else {
                throw encryptedRange(label())
            }
        case .recording:
            break
        }
        try checkRange(segment.byteRange, label: label)
        try checkURI(segment.uri, label: label)
        try checkKeys(segment.keys, label: label, hasSequenceIV: true)
    }

    private func encryptedRange(_ label: String) -> HLSError {
        HLSError(.unsupported, "\(label) of \(source) is an AES-128 encrypted byte range; a package stores media decrypted at the offsets its playlist names, and a decrypted range is shorter than the encrypted one.")
    }

    private static func sameMap(_ lhs: MediaInitializationSection?, _ rhs: MediaInitializationSection?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case let (lhs?, rhs?): lhs.uri == rhs.uri && lhs.byteRange == rhs.byteRange
        default: false
        }
    }

    /// A byte range must hold at least one byte and end inside 2^64.
    private func checkRange(_ range: PlaylistByteRange?, label: () -> String) throws(HLSError) {
        guard let range else { return }
        guard range.length > 0 else {
            throw HLSError(.invalidPlaylist, "\(label()) has a byte range of 0 bytes; a range holds at least one (RFC 8216bis §4.4.4.2).")
        }
        guard !range.resolvedOffset.addingReportingOverflow(range.length).overflow else {
            throw HLSError(.invalidPlaylist, "\(label()) has a byte range (\(range.length)@\(range.resolvedOffset)) that ends past 2^64.")
        }
    }

    /// The URI must resolve to http(s) without a downgrade. A plain relative path (the common
    /// case) needs no URL to know that.
    private func checkURI(_ uri: String, label: () -> String) throws(HLSError) {
        guard !ResourceURL.isPlainRelativePath(uri) else { return }
        _ = try ResourceURL.resolve(uri, against: baseURL, what: label())
    }

    /// The identity AES-128 key among `keys` (whatever their order) must be usable: SAMPLE-AES
    /// and DRM-only key formats are refused; an initialization section needs an explicit IV.
    private mutating func checkKeys(_ keys: [SegmentKey], label: () -> String, hasSequenceIV: Bool) throws(HLSError) {
        guard !keys.isEmpty else { return }
        guard let key = keys.first(where: \.isIdentity) else {
            let formats = keys.map(\.keyFormat).joined(separator: ", ")
            throw HLSError(.unsupported, "\(label()) is encrypted only for KEYFORMAT \(formats) (DRM); only identity AES-128 keys are supported.")
        }
        guard key.method == .aes128 else {
            throw HLSError(.unsupported, "\(label()) uses METHOD=\(key.method); only whole-resource AES-128 is supported (SAMPLE-AES, SAMPLE-AES-CTR and AES-256-GCM are refused).")
        }
        guard let uri = key.uri else {
            throw HLSError(.invalidPlaylist, "\(label()): its EXT-X-KEY (line \(key.line.number)) has no URI.")
        }
        guard key.iv != nil || hasSequenceIV else {
            throw HLSError(.invalidPlaylist, "\(label()) is AES-128 encrypted but its EXT-X-KEY (line \(key.line.number)) has no IV; an encrypted initialization section needs one (RFC 8216bis §4.4.4.5).")
        }
        if keyURIs.insert(uri).inserted { try checkURI(uri, label: { let text = label(); return "Key of \(text.prefix(1).lowercased() + text.dropFirst())" }) }
    }
}
