#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraSupport

/// Serves one verified package: its playlists and manifests from memory (frozen when the server
/// was made),
/// its other files from disk beneath the package folder (never through a symlink, and only at
/// the size the manifest records), `GET /` as a small player page. Nothing else is reachable:
/// a path is looked up exactly in the frozen set, so traversal, encoded traversal and absolute
/// paths are 404. Media carries a strong ETag (from its SHA-256); `If-None-Match` gets 304 and
/// an `If-Range` that does not match gets the whole file.
final class PackageResponder: HTTPResponder {
    private struct File {
        let path: SafeRelativePath
        let etag: String
        /// The file as verified: it is served only while it still is.
        let identity: FileIdentity
        /// Content-Type, ETag and Cache-Control, made once.
        let headers: ResponseHeaders
    }

    private let openFiles: OpenFileCache
    /// Playlists and manifests, by request path.
    private let playlists: [String: (bytes: [UInt8], etag: String)]
    private let files: [String: File]
    private let page: [UInt8]
    private let log: AccessLog?
    /// Told once for each file that changed after verification (and is not served).
    private let notice: @Sendable (String) -> Void
    private let noticed = Lock<Set<String>>([])

    /// A responder for the package at `folder` that `verification` verified; `notice` is told
    /// of each file not served because it changed since.
    init(folder: URL, verification: PackageVerification, manifest: PackageManifest, log: AccessLog?,
         notice: @escaping @Sendable (String) -> Void = { _ in }) throws(PlaybackError) {
        guard let root = FolderHandle(path: folder.path) else {
            throw PlaybackError(.rootUnavailable, "Cannot open \(folder.path) as a folder (a symbolic link is refused).")
        }
        openFiles = OpenFileCache(root: root)
        self.log = log
        self.notice = notice
        var playlists: [String: (bytes: [UInt8], etag: String)] = [:]
        // The playlists as verified, and the two manifests (verified against each other), from memory.
        var frozen = verification.playlists
        for name in [PackageManifest.fileName, PackageChecksums.fileName] {
            if let path = SafeRelativePath(name), let bytes = root.contents(of: path, limit: 16 << 20) { frozen[name] = bytes }
        }
        for (path, bytes) in frozen {
            playlists["/" + path] = (bytes, Self.etag(SHA256Hasher.hash(bytes).hex))
        }
        self.playlists = playlists
        let roles = Dictionary(manifest.tracks.map { ($0.id, $0.role) }, uniquingKeysWith: { first, _ in first })
        var files: [String: File] = [:]
        for file in manifest.files where playlists["/" + file.path] == nil {
            // Verification refused unsafe paths, and took the identity of every file it hashed.
            guard let path = SafeRelativePath(file.path), let identity = verification.identities[file.path] else { continue }
            let audio = file.track.flatMap { roles[$0] } == .audio
            let etag = Self.etag(file.sha256)
            files["/" + file.path] = File(path: path, etag: etag, identity: identity,
                                          headers: ["Content-Type": Self.type(file.path, audio: audio), "ETag": etag, "Cache-Control": "public, max-age=86400"])
        }
        self.files = files
        page = PlayerPage.html(manifest)
    }

    func reply(to request: ServerRequest) -> ServerReply {
        let response = response(to: request)
        if let log {
            let size = response.bodyByteCount
            var status = response.status
            var bytes = size
            if status == 200, response.servesRanges, response.body.isRangeable {
                switch RangeResolution(header: request.rangeHeader, size: size) {
                case .whole: break
                case .partial(_, let count): (status, bytes) = (206, count)
                case .unsatisfiable: (status, bytes) = (416, 0)
                }
            }
            log.record(method: request.method, path: request.path, status: status, bytes: request.method == .head ? 0 : bytes)
        }
        return .response(response)
    }

    private func response(to request: ServerRequest) -> ServerResponse {
        let path = request.path
        if path == "/" || path == "/index.html" {
            return ServerResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache"], body: .bytes(page))
        }
        if let playlist = playlists[path] {
            let headers: ResponseHeaders = ["Content-Type": ContentType.forPath(path), "Cache-Control": "no-cache", "ETag": playlist.etag]
            if request.ifNoneMatchHeader == playlist.etag { return ServerResponse(status: 304, headers: headers) }
            return ServerResponse(status: 200, headers: headers, body: .bytes(playlist.bytes), servesRanges: Self.matches(request.ifRangeHeader, playlist.etag))
        }
        guard let file = files[path] else { return .status(404) }
        let headers = file.headers
        // The file must still be the one verified — regular, beneath the folder, the same inode,
        // size and times — before anything is said under its identity (its ETag, a 304 included).
        switch openFiles.body(file.path, verified: file.identity) {
        case .missing: return .status(404)
        case .changed(let difference):
            if noticed.withLock({ $0.insert(file.path.value).inserted }) {
                let text = "\(file.path.value) changed after the package was verified (\(difference)); it is not served"
                log?.note(text)
                notice(text)
            }
            return .status(404)
        case .body(let body):
            if request.ifNoneMatchHeader == file.etag { return ServerResponse(status: 304, headers: headers) }
            return ServerResponse(status: 200, headers: headers, body: .file(body), servesRanges: Self.matches(request.ifRangeHeader, file.etag))
        }
    }

    /// An `If-Range` allows the range only when it is absent or names this ETag.
    private static func matches(_ ifRange: String?, _ etag: String) -> Bool { ifRange == nil || ifRange == etag }

    private static func etag(_ sha256: String) -> String { "\"\(sha256.prefix(32))\"" }

    /// The media type of `path`: by extension, with fMP4 of an audio track as `audio/mp4`.
    private static func type(_ path: String, audio: Bool) -> String {
        let type = ContentType.forPath(path)
        return audio && type == "video/mp4" ? "audio/mp4" : type
    }
}
