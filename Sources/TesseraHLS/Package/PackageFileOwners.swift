/// Which track owns each media file of a package (the manifest's `track` of a file): the track
/// whose folder holds it — `video/3.ts` is `video`'s — but for the files listed otherwise (a file
/// named first by a gap of one track and fetched for another; a recording's interstitial
/// assets, which no track owns). A table of exceptions, not of every file.
struct PackageFileOwners: Sendable {
    /// Files whose owner is not the track of their folder, by path (nil: no track owns it).
    private let exceptions: [String: String?]

    /// Owners by folder, but for `exceptions`.
    init(exceptions: [String: String?] = [:]) {
        self.exceptions = exceptions
    }

    /// The track owning the file at `path`; nil for a file no track owns or one outside every
    /// track's folder.
    subscript(path: String) -> String? {
        if let exception = exceptions[path] { return exception }
        guard let slash = path.utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        return String(path[..<slash])
    }
}
