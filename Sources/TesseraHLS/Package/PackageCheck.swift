#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// One verification pass over a package folder.
struct PackageCheck {
    let maximumPlaylistBytes: Int
    /// Whether every media file is validated as media (`ResourceMediaCheck`).
    var checksMedia = false
    private(set) var manifest: PackageManifest?
    private(set) var findings: [PackageFinding] = []
    private(set) var playlists: [String: [UInt8]] = [:]
    private(set) var fileCount = 0
    private(set) var byteCount: UInt64 = 0
    private var files: Set<String> = []
    private var digests: [String: (size: UInt64, sha256: String)] = [:]
    /// Each file's identity (inode, times) as hashed: what a server checks before serving it.
    private(set) var identities: [String: FileIdentity] = [:]

    init(maximumPlaylistBytes: Int, checksMedia: Bool = false) {
        self.maximumPlaylistBytes = maximumPlaylistBytes
        self.checksMedia = checksMedia
    }

    private mutating func find(_ code: PackageFinding.Code, _ path: String?, _ message: String) {
        findings.append(PackageFinding(code, path: path, message))
    }

    mutating func run(_ path: String) {
        guard let entries = FolderTree.entries(at: path), let root = FolderHandle(path: path) else {
            find(.unreadable, nil, "\(path) is not a folder that can be read (a symbolic link is refused).")
            return
        }
        for entry in entries {
            guard entry.kind == .file else {
                find(.notRegularFile, entry.path, entry.kind == .link ? "A symbolic link; a package holds regular files only." : "Not a regular file.")
                continue
            }
            files.insert(entry.path)
        }
        fileCount = files.count
        readManifest(root)
        checkMembership(root)
        checkClosure(root)
        if checksMedia { checkMedia(root) }
    }

    // MARK: Media

    /// Every media file the manifest lists and the folder holds, validated as media on every
    /// core (at most 8 at once).
    private mutating func checkMedia(_ root: FolderHandle) {
        let names = (manifest?.files ?? []).filter { $0.role == .media && files.contains($0.path) && $0.size > 0 }.map(\.path)
        let problems = Self.onEveryCore(names) { name -> String? in
            guard let path = SafeRelativePath(name), let source = MP4FileSource(descriptor: root.openFile(path, flags: O_RDONLY)) else {
                return "media: it cannot be read"
            }
            return ResourceMediaCheck.problem(source)
        }
        for (name, problem) in zip(names, problems) {
            if let problem { find(.invalidMedia, name, "It is not valid \(problem)") }
        }
    }

    // MARK: Manifest and checksums

    private mutating func readManifest(_ root: FolderHandle) {
        let name = PackageManifest.fileName
        guard files.contains(name), let path = SafeRelativePath(name), let bytes = root.contents(of: path, limit: maximumPlaylistBytes) else {
            find(.manifest, name, "There is no readable \(name).")
            return
        }
        do {
            let decoded = try PackageManifest.decode(bytes)
            guard decoded.schema == PackageManifest.schemaName, decoded.schemaVersion >= 1,
                  decoded.schemaVersion <= PackageManifest.currentSchemaVersion else {
                find(.manifest, name, "Schema \"\(decoded.schema)\" version \(decoded.schemaVersion) is not one this version reads (\(PackageManifest.schemaName) 1…\(PackageManifest.currentSchemaVersion)).")
                return
            }
            manifest = decoded
        } catch {
            find(.manifest, name, "It is not a package manifest: \(error).")
        }
    }

    /// Every file hashed once, on every core; the manifest and the checksum list each compared
    /// with the tree.
    private mutating func checkMembership(_ root: FolderHandle) {
        let names = files.sorted()
        let results = Self.digests(of: names, in: root)
        for (file, digest) in zip(names, results) {
            guard let digest else {
                find(.unreadable, file, "The file cannot be read.")
                continue
            }
            digests[file] = (digest.size, digest.sha256.hex)
            identities[file] = digest.identity
            byteCount += digest.size
        }
        let sumsName = PackageChecksums.fileName
        if let manifest {
            var listed: Set<String> = []
            for file in manifest.files {
                listed.insert(file.path)
                guard let actual = digests[file.path] else {
                    if !files.contains(file.path) { find(.missingFile, file.path, "\(PackageManifest.fileName) lists it; it is not in the package.") }
                    continue
                }
                if actual.size != file.size {
                    find(.sizeMismatch, file.path, "It has \(actual.size) bytes; \(PackageManifest.fileName) says \(file.size).")
                } else if actual.sha256 != file.sha256 {
                    find(.digestMismatch, file.path, "Its SHA-256 is not the one \(PackageManifest.fileName) records: the file was altered.")
                }
            }
            for extra in files.subtracting(listed).subtracting([PackageManifest.fileName, sumsName]).sorted() {
                find(.extraFile, extra, "It is in the package; \(PackageManifest.fileName) does not list it.")
            }
        }
        guard files.contains(sumsName), let path = SafeRelativePath(sumsName),
              let bytes = root.contents(of: path, limit: maximumPlaylistBytes),
              let sums = PackageChecksums.parse(String(decoding: bytes, as: UTF8.self)) else {
            find(.checksums, sumsName, "There is no readable \(sumsName) in the format sha256sum -c reads.")
            return
        }
        var summed: Set<String> = []
        for entry in sums {
            guard summed.insert(entry.path).inserted else {
                find(.checksums, sumsName, "It lists \(entry.path) twice.")
                continue
            }
            guard let actual = digests[entry.path] else {
                find(.checksums, entry.path, "\(sumsName) lists it; it is not in the package.")
                continue
            }
            if actual.sha256 != entry.sha256 { find(.checksums, entry.path, "Its SHA-256 is not the one \(sumsName) records.") }
        }
        for unlisted in files.subtracting(summed).subtracting([sumsName]).sorted() {
            find(.checksums, unlisted, "\(sumsName) does not list it.")
        }
    }

    /// The size and SHA-256 of each of `names` beneath `root` (nil: unreadable), on every core.
    private static func digests(of names: [String], in root: FolderHandle) -> [(size: UInt64, sha256: SHA256Digest, identity: FileIdentity)?] {
        onEveryCore(names) { name in SafeRelativePath(name).flatMap { root.digest(of: $0) } }
    }

    /// `work` done for each of `names`, in their order, by as many workers as there are cores
    /// (at most 8), each taking the next name.
    private static func onEveryCore<Result: Sendable>(_ names: [String], _ work: @Sendable (String) -> Result?) -> [Result?] {
        let results = Lock([Result?](repeating: nil, count: names.count))
        let next = Lock(0)
        let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount, names.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < names.count else { return }
                let result = work(names[index])
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { $0 }
    }

    // MARK: Playlist closure

    private mutating func checkClosure(_ root: FolderHandle) {
        checkPresentation(manifest?.entry ?? PackageManifest.entryName, root, depth: 0)
    }

    /// The closure of the presentation whose multivariant playlist is `entry`: the package's,
    /// or (at `depth` 1) an interstitial asset packaged beside it.
    private mutating func checkPresentation(_ entry: String, _ root: FolderHandle, depth: Int) {
        guard case .multivariant(let master)? = playlist(entry, root) else {
            if playlists[entry] != nil { find(.invalidPlaylist, entry, "It is a media playlist; a package's entry is a multivariant playlist.") }
            return
        }
        if !master.sessionKeys.isEmpty { find(.invalidPlaylist, entry, "It holds EXT-X-SESSION-KEY; a package is plaintext and holds no key.") }
        var children: [String] = []
        for uri in master.variants.map(\.uri) + master.iFrameVariants.map(\.uri) + master.renditions.compactMap(\.uri) {
            if let path = local(uri, from: entry), !children.contains(path) { children.append(path) }
        }
        for uri in master.sessionData.compactMap(\.uri) { _ = local(uri, from: entry) }
        for child in children {
            guard let parsed = playlist(child, root) else { continue }
            guard case .media(let media) = parsed else {
                find(.invalidPlaylist, child, "It is a multivariant playlist where a media playlist must be.")
                continue
            }
            if media.segments.contains(where: { !$0.keys.isEmpty }) || media.segments.contains(where: { !($0.map?.keys.isEmpty ?? true) }) {
                find(.invalidPlaylist, child, "It holds EXT-X-KEY; a package is plaintext and holds no key.")
            }
            var maps: Set<String> = []
            for segment in media.segments {
                if let map = segment.map, maps.insert(map.uri).inserted { _ = local(map.uri, from: child) }
                // A gap's URI names a file too: players that do not honour EXT-X-GAP fetch it.
                _ = local(segment.uri, from: child, gap: segment.isGap)
            }
            checkInterstitials(media, of: child, root, depth: depth)
        }
    }

    /// The interstitial assets `media` (at `path`) names: local, each a packaged presentation —
    /// an X-ASSET-URI's multivariant playlist, or each asset of a local X-ASSET-LIST.
    private mutating func checkInterstitials(_ media: MediaPlaylist, of path: String, _ root: FolderHandle, depth: Int) {
        for range in media.dateRanges {
            for attribute in range.clientAttributes where PlaylistURIRole.interstitialAttributes.contains(attribute.name) {
                guard case .string(let uri) = attribute.value, let asset = local(uri, from: path) else { continue }
                guard depth == 0 else {
                    find(.invalidPlaylist, path, "An interstitial asset names interstitials of its own; a package holds one level.")
                    continue
                }
                guard attribute.name == "X-ASSET-LIST" else {
                    checkPresentation(asset, root, depth: 1)
                    continue
                }
                struct List: Decodable {
                    struct Asset: Decodable {
                        let uri: String
                        enum CodingKeys: String, CodingKey { case uri = "URI" }
                    }
                    let assets: [Asset]
                    enum CodingKeys: String, CodingKey { case assets = "ASSETS" }
                }
                // Why it does not decode matters less than that it does not: the finding says so.
                guard let safe = SafeRelativePath(asset), let bytes = root.contents(of: safe, limit: maximumPlaylistBytes),
                      let list = try? JSONDecoder().decode(List.self, from: Data(bytes)) else {
                    find(.invalidPlaylist, asset, "It is not an asset list (a JSON object with ASSETS).")
                    continue
                }
                for item in list.assets {
                    if let presentation = local(item.uri, from: asset) { checkPresentation(presentation, root, depth: 1) }
                }
            }
        }
    }

    /// The playlist at `path`, parsed (its bytes kept), or nil with a finding.
    private mutating func playlist(_ path: String, _ root: FolderHandle) -> Playlist? {
        guard let safe = SafeRelativePath(path), files.contains(path), let bytes = root.contents(of: safe, limit: maximumPlaylistBytes) else {
            find(.uriMissing, path, "The playlist is not a readable file of the package.")
            return nil
        }
        playlists[path] = bytes
        do {
            let parsed = try PlaylistParser().parse(bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            if text.contains("#EXT-X-DEFINE") { find(.invalidPlaylist, path, "It holds EXT-X-DEFINE; a package's playlists are written resolved.") }
            return parsed.playlist
        } catch {
            find(.invalidPlaylist, path, "It does not parse: \(error.message)")
            return nil
        }
    }

    /// The package path `uri` names from the playlist at `from`, or nil with a finding: it must
    /// be relative, without query or fragment, stay inside the package and name one of its files.
    private mutating func local(_ uri: String, from playlist: String, gap: Bool = false) -> String? {
        guard !uri.contains(":"), !uri.hasPrefix("/"), !uri.contains("?"), !uri.contains("#"), !uri.contains("\\"),
              let decoded = PercentDecoding.decode(uri), !decoded.contains("\0") else {
            find(.uriOutside, playlist, "URI \"\(URLRedaction.redact(uri: uri))\" is not a relative path inside the package.")
            return nil
        }
        var components = playlist.split(separator: "/").dropLast().map(String.init)
        for part in decoded.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "..":
                guard !components.isEmpty else {
                    find(.uriOutside, playlist, "URI \"\(URLRedaction.redact(uri: uri))\" resolves outside the package.")
                    return nil
                }
                components.removeLast()
            case ".", "": continue
            default: components.append(String(part))
            }
        }
        let path = components.joined(separator: "/")
        guard files.contains(path) else {
            find(.uriMissing, playlist, "URI \"\(URLRedaction.redact(uri: uri))\" names \(path), which is not a file of the package"
                 + (gap ? " (an EXT-X-GAP segment: players that do not honour the tag, such as ffmpeg and GStreamer, fetch it and stop)." : "."))
            return nil
        }
        return path
    }
}
