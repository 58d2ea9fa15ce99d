/// Something `PackageStore.verify` found wrong with a package: what kind of problem, the file
/// it is about (relative to the package root) and one sentence.
public struct PackageFinding: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of finding (stable IDs, as `verify-package --json` prints them).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The folder cannot be read as a package.
        public static let unreadable = Code("unreadable")
        /// `manifest.json` is missing, not JSON of the schema, or of an unknown version.
        public static let manifest = Code("manifest")
        /// `manifest-sha256.txt` is missing, malformed, or disagrees with the files.
        public static let checksums = Code("checksums")
        /// A file the manifest lists is not there.
        public static let missingFile = Code("missing-file")
        /// A file is there that the manifest does not list.
        public static let extraFile = Code("extra-file")
        /// A file's size is not the manifest's.
        public static let sizeMismatch = Code("size-mismatch")
        /// A file's SHA-256 is not the manifest's.
        public static let digestMismatch = Code("digest-mismatch")
        /// A symbolic link, device, FIFO or socket in the package.
        public static let notRegularFile = Code("not-regular-file")
        /// A reachable playlist does not parse, or holds what a package must not (a key, a
        /// define).
        public static let invalidPlaylist = Code("invalid-playlist")
        /// A playlist URI is absolute, remote, or resolves outside the package.
        public static let uriOutside = Code("uri-outside")
        /// A playlist URI names no file of the package.
        public static let uriMissing = Code("uri-missing")
        /// A media file is not valid media of the format its bytes announce (cut short, or
        /// malformed): asked for with `verify(media: true)`.
        public static let invalidMedia = Code("invalid-media")
    }

    /// What kind of problem.
    public let code: Code
    /// The file it is about, when one.
    public let path: String?
    /// One sentence.
    public let message: String

    /// Creates a finding.
    public init(_ code: Code, path: String?, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(code)\(path.map { " \($0)" } ?? ""): \(message)" }
}
