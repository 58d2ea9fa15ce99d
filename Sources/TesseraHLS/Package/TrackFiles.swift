#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Which file of the package layout each URI of one track names: the URIs in the order the
/// planner placed them (each map when it changes, each segment, each gap), and how any URI is
/// keyed in the layout. The local playlist's writer asks in that same order, so it finds each
/// URI in the next entry, comparing strings that are most often the very same storage — no
/// table of 100,000 URIs is built or probed for it; anything else is keyed again, as the
/// planner keyed it, and found in the layout.
struct TrackFiles: Sendable {
    /// A URI as written and its file.
    struct Placement: Sendable {
        let uri: String
        let file: Int
    }

    /// The track's folder.
    let id: String
    /// Its media playlist's URL, which relative URIs resolve against.
    let baseURL: URL
    /// The folder plain relative URIs are joined to as text (nil: every URI is resolved as a URL).
    private let plainDirectory: String?
    /// `plainDirectory`'s source folder in the layout.
    private let plainFolder: Int?
    /// Every URI placed, in planning order.
    private(set) var placements: [Placement] = []

    /// The files of the track in folder `id` whose playlist is at `baseURL`, keyed in `layout`.
    init(id: String, baseURL: URL, layout: inout PackageFileLayout) {
        self.id = id
        self.baseURL = baseURL
        plainDirectory = ResourceURL.plainDirectory(of: baseURL)
        plainFolder = plainDirectory.map { layout.sourceFolder($0) }
    }

    /// Room for `count` more placements.
    mutating func reserveCapacity(_ count: Int) { placements.reserveCapacity(placements.count + count) }

    /// Records that `uri` names `file`.
    mutating func place(_ uri: String, file: Int) { placements.append(Placement(uri: uri, file: file)) }

    /// The layout key of `uri` and the local name its file gets when new. A plain relative path
    /// (the common case) needs no URL made for each of 100,000 segments: a name is keyed in its
    /// playlist's folder as it stands, a path joined to it as text.
    /// - Throws: `invalid-playlist` or `unsupported` as `ResourceURL.resolve`; `what` names the
    ///   reference.
    func key(of uri: String, in layout: inout PackageFileLayout,
             what: @autoclosure () -> String) throws(HLSError) -> (key: PackageFileLayout.SourceKey, name: String) {
        switch plainKey(of: uri) {
        case .name(let folder): return (PackageFileLayout.SourceKey(folder: folder, name: uri), PackageFileLayout.localName(lastSegmentOf: uri))
        case .joined(let text): return (layout.key(of: text), PackageFileLayout.localName(lastSegmentOf: uri))
        case nil:
            let url = try ResourceURL.resolve(uri, against: baseURL, what: what())
            return (layout.key(of: url.absoluteString), PackageFileLayout.localName(url))
        }
    }

    /// The file `uri` names, when the layout holds it (a URI no track planned has none).
    func file(of uri: String, in layout: PackageFileLayout) -> Int? {
        let key: PackageFileLayout.SourceKey?
        switch plainKey(of: uri) {
        case .name(let folder): key = PackageFileLayout.SourceKey(folder: folder, name: uri)
        case .joined(let text): key = layout.existingKey(of: text)
        case nil:
            // A URI that does not resolve names no file: the planner refused every planned URI
            // that did not resolve (with its error), so nil — not planned — is the whole answer.
            key = (try? ResourceURL.resolve(uri, against: baseURL, what: "")).flatMap { layout.existingKey(of: $0.absoluteString) }
        }
        return key.flatMap { layout.file($0) }
    }

    /// A reader of the placements in order, for a pass over the playlist (its writer's).
    struct Cursor {
        private var next = 0

        /// The file `uri` names: the next placement's, or the one after it (a map the pass does
        /// not ask for), else looked up.
        mutating func file(of uri: String, in files: TrackFiles, layout: PackageFileLayout) -> Int? {
            for ahead in 0..<2 where next + ahead < files.placements.count {
                let placement = files.placements[next + ahead]
                if placement.uri == uri {
                    next += ahead + 1
                    return placement.file
                }
            }
            return files.file(of: uri, in: layout)
        }
    }

    /// How a plain relative URI is keyed without a URL.
    private enum PlainKey {
        /// A name in the playlist's folder (this source folder).
        case name(Int)
        /// A path, joined to the playlist's folder as this text.
        case joined(String)
    }

    private func plainKey(of uri: String) -> PlainKey? {
        guard let directory = plainDirectory, let folder = plainFolder, ResourceURL.isJoinablePlain(uri) else { return nil }
        return uri.utf8.contains(UInt8(ascii: "/")) ? .joined(directory + uri) : .name(folder)
    }
}
