#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// A response cache in a folder, surviving restarts: one file per stored variant, named by the
/// SHA-256 of its URL and `Vary` key (URLs never reach the disk), written to a temporary file and
/// renamed into place. Bounded by entries and body bytes with least-recently-used eviction. An
/// entry that fails its checksum or does not parse — a torn write, a flipped bit, a stranger's
/// file — is a miss and is deleted. A missing folder is created owner-only; entries are
/// owner-only files.
public final class DiskResponseCache: ResponseCache {
    private struct Variant {
        var vary: CacheVary
        var bytes: Int
        var lastUse: UInt64
    }

    private struct Index {
        /// URL digest → file name → variant.
        var variants: [String: [String: Variant]] = [:]
        var bytes = 0
        var count = 0
        var clock: UInt64 = 0
    }

    /// The folder.
    public let directory: URL
    /// The most entries kept.
    public let maximumEntries: Int
    /// The most body bytes kept in total.
    public let maximumBytes: Int
    private let index = Lock(Index())

    /// Opens (or creates) the cache in `directory`, indexing what is there and deleting what is
    /// damaged or left over from an interrupted write.
    /// - Throws: `file` (`cache-unusable`) when the folder cannot be created or read.
    public init(directory: URL, maximumEntries: Int = 4096, maximumBytes: Int = 256 << 20) throws(HTTPError) {
        self.directory = directory
        self.maximumEntries = max(1, maximumEntries)
        self.maximumBytes = max(1, maximumBytes)
        let names: [String]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw HTTPError(.file, code: .cacheUnusable, "The cache folder \(directory.path) cannot be used: \(error).")
        }
        index.withLock { index in
            for name in names.sorted() {
                let path = directory.appendingPathComponent(name).path
                guard name.hasSuffix(".entry"), let (key, variant) = Self.indexEntry(name, path: path) else {
                    if name.hasSuffix(".entry") || name.contains(".entry.tmp-") { unlink(path) }
                    continue
                }
                index.clock += 1
                index.variants[key, default: [:]][name] = Variant(vary: variant.vary, bytes: variant.bytes, lastUse: index.clock)
                index.bytes += variant.bytes
                index.count += 1
            }
            evict(&index)
        }
    }

    public func lookup(_ url: String, requestHeaders: HTTPHeaders) -> CachedResponse? {
        let key = Self.key(url)
        return index.withLock { index -> CachedResponse? in
            guard let (name, _) = index.variants[key]?.first(where: { $0.value.vary.matches(requestHeaders) }) else { return nil }
            guard let bytes = read(name), let response = DiskCacheEntry.decode(bytes), response.vary.matches(requestHeaders) else {
                remove(key, name, &index)
                return nil
            }
            index.clock += 1
            index.variants[key]?[name]?.lastUse = index.clock
            return response
        }
    }

    public func store(_ url: String, _ response: CachedResponse) {
        guard response.body.count <= maximumBytes, response.vary.fields != nil else { return }
        let key = Self.key(url)
        let name = "\(key)-\(SHA256Hasher.hash(Array(response.vary.keyText.utf8)).hex.prefix(16)).entry"
        guard let file = DiskCacheEntry.encode(response) else { return }
        index.withLock { index in
            if index.variants[key]?[name] != nil { remove(key, name, &index) }
            guard persist(file, name) else { return }
            index.clock += 1
            index.variants[key, default: [:]][name] = Variant(vary: response.vary, bytes: response.body.count, lastUse: index.clock)
            index.bytes += response.body.count
            index.count += 1
            evict(&index)
        }
    }

    public func update(_ url: String, vary: CacheVary, headers: HTTPHeaders, freshness: CacheFreshness) {
        let key = Self.key(url)
        index.withLock { index in
            guard let (name, _) = index.variants[key]?.first(where: { $0.value.vary == vary }) else { return }
            guard let bytes = read(name), var response = DiskCacheEntry.decode(bytes) else {
                remove(key, name, &index)
                return
            }
            response.headers = headers
            response.freshness = freshness
            guard let file = DiskCacheEntry.encode(response), persist(file, name) else {
                remove(key, name, &index)
                return
            }
        }
    }

    public func invalidate(_ url: String) {
        let key = Self.key(url)
        index.withLock { index in
            for name in index.variants[key]?.keys.map({ $0 }) ?? [] { remove(key, name, &index) }
        }
    }

    /// The number of entries and body bytes held.
    public var usage: (entries: Int, bytes: Int) {
        index.withLock { ($0.count, $0.bytes) }
    }

    // MARK: Files (called with the index locked)

    private static func key(_ url: String) -> String { SHA256Hasher.hash(Array(url.utf8)).hex }

    /// Reads one file's header and meta (not its body) for the index; nil when it is not a
    /// well-formed entry of the size its header announces.
    private static func indexEntry(_ name: String, path: String) -> (String, Variant)? {
        guard let dash = name.firstIndex(of: "-") else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0,
              let header = readExactly(descriptor, count: DiskCacheEntry.headerBytes, at: 0),
              let (metaLength, bodyLength) = DiskCacheEntry.lengths(header: header[...]),
              Int(info.st_size) == DiskCacheEntry.headerBytes + metaLength + bodyLength,
              let metaBytes = readExactly(descriptor, count: metaLength, at: DiskCacheEntry.headerBytes),
              let meta = DiskCacheEntry.decodeMeta(header + metaBytes) else { return nil }
        var fields: [(name: String, value: String?)]?
        if let vary = meta.vary {
            fields = vary.compactMap { $0.isEmpty ? nil : ($0[0], $0.count > 1 ? $0[1] : nil) }
        }
        return (String(name[..<dash]), Variant(vary: CacheVary(fields: fields), bytes: bodyLength, lastUse: 0))
    }

    private static func readExactly(_ descriptor: Int32, count: Int, at offset: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return buffer
    }

    private func read(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: directory.appendingPathComponent(name).path).map { Array($0) }
    }

    /// Writes to a temporary file, then renames it over `name`.
    private func persist(_ bytes: [UInt8], _ name: String) -> Bool {
        let final = directory.appendingPathComponent(name).path
        let temporary = final + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let ok = FileDescriptorIO.writeAll(descriptor, bytes)
        close(descriptor)
        guard ok, rename(temporary, final) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    private func remove(_ key: String, _ name: String, _ index: inout Index) {
        if let variant = index.variants[key]?.removeValue(forKey: name) {
            index.bytes -= variant.bytes
            index.count -= 1
        }
        if index.variants[key]?.isEmpty == true { index.variants[key] = nil }
        unlink(directory.appendingPathComponent(name).path)
    }

    private func evict(_ index: inout Index) {
        while index.count > maximumEntries || index.bytes > maximumBytes {
            var oldest: (key: String, name: String, use: UInt64)?
            for (key, variants) in index.variants {
                for (name, variant) in variants where oldest.map({ variant.lastUse < $0.use }) ?? true {
                    oldest = (key, name, variant.lastUse)
                }
            }
            guard let oldest else { return }
            remove(oldest.key, oldest.name, &index)
        }
    }
}
