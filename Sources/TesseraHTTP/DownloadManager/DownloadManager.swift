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

/// Downloads files into a folder in the background, surviving pauses, failures and restarts.
///
/// - Each download writes a hidden partial file (`.<id>.tessera-download`) in the folder. A
///   resumed transfer asks for the missing bytes (`Range`) only if the resource is unchanged
///   (`If-Range` with the stored `ETag`, else `Last-Modified`); a `200` instead means it changed
///   and the download starts again from zero (`restarted`). A complete file is flushed and
///   published under its name, or `name (1).ext`, … — an existing file is never replaced.
/// - File names come from the caller or the URL and must be safe (no `..`, `/`, `\`, NUL,
///   controls, leading dot); otherwise a generated name is used.
/// - Retryable failures (transport errors, 408, 429, 5xx) resume after backoff or `Retry-After`,
///   up to `retry.maximumAttempts` in a row; others fail the download (its partial file stays
///   for a later `resume`).
/// - The state is an append-only log (`stateFile`): on the next start, unfinished downloads
///   continue from their partial files. A URL with a query (often signed) or a JWT-like path
///   segment is not stored: such a download comes back as `needsURL` until `resume(_:url:)`
///   gives a fresh URL for the same host and path.
/// - `events` delivers every state change in order; progress is coalesced per download.
public actor DownloadManager {
    /// Manager settings.
    public struct Configuration: Sendable {
        /// Downloads transferring at once. Default 3.
        public var maximumConcurrent = 3
        /// Retries of one download in a row.
        public var retry: RetryPolicy = {
            var policy = RetryPolicy()
            policy.maximumAttempts = 6
            policy.initialBackoff = .seconds(1)
            policy.maximumBackoff = .seconds(60)
            policy.idempotentMethods = [.get]
            return policy
        }()
        /// The most downloads held (finished ones included, until removed); `add` refuses more.
        public var maximumDownloads = 10_000
        /// Bounds on each transfer; the body limit defaults to 1 TiB.
        public var limits: TransferLimits = {
            var limits = TransferLimits()
            limits.maximumBodyBytes = 1 << 40
            limits.bufferHighWatermark = 4 << 20
            limits.bufferLowWatermark = 1 << 20
            return limits
        }()

        /// The defaults.
        public init() {}
    }

    struct Entry {
        var url: URL?
        var place: String
        var fileName: String
        var state: DownloadState
        var etag: String?
        var lastModified: String?
        var total: Int64?
        var received: Int64 = 0
        var generation = 0
        var worker: Task<Void, Never>?
    }

    let client: HTTPClient
    let folder: URL
    let configuration: Configuration
    let sleep: @Sendable (Duration) async throws -> Void
    let wallClock: @Sendable () -> Int64
    let log: AppendOnlyLog<DownloadRecord>
    let channel = DownloadEvents.channel()
    var entries: [String: Entry] = [:]
    var order: [String] = []
    private var isStarted = false

    /// The manager's events (one consumer).
    public nonisolated var events: DownloadEvents { DownloadEvents(channel: channel) }

    /// Transient events dropped because the reader of `events` fell far behind.
    public nonisolated var droppedEvents: Int { channel.dropped }

    /// A manager writing into `folder` and keeping its state in `stateFile`, restoring what the
    /// file holds (sending begins at `start()`).
    /// - Throws: `file` errors for an unusable folder or state file.
    public init<C: Clock>(client: HTTPClient, folder: URL, stateFile: URL, configuration: Configuration = Configuration(),
                          clock: C, wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) throws(HTTPError)
    where C.Duration == Duration {
        self.client = client
        self.folder = folder
        self.configuration = configuration
        self.sleep = { try await clock.sleep(for: $0) }
        self.wallClock = wallClock
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw HTTPError(.file, code: .destinationUnwritable, "The download folder \(folder.path) cannot be created.")
        }
        log = try HTTPError.file { () throws(SupportError) in try AppendOnlyLog(file: stateFile) }
        for record in log.opened { Self.replay(record, into: &entries, order: &order) }
        for id in order {
            guard var entry = entries[id] else { continue }
            entry.received = Self.partialSize(folder, id)
            if entry.state == .running || entry.state == .queued { entry.state = entry.url == nil ? .needsURL : .queued }
            entries[id] = entry
            channel.offer(DownloadEvent(id: id, kind: .added))
        }
    }

    /// Begins transferring queued downloads.
    public func start() {
        isStarted = true
        schedule()
    }

    /// Adds a download of `url`; returns its id.
    /// - Throws: `invalid-request` for a URL that is not http(s) or carries user-info;
    ///   `too-many-downloads`; the state log's `file` errors.
    @discardableResult
    public func add(_ url: URL, fileName: String? = nil) throws(HTTPError) -> String {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil, url.user == nil else {
            throw HTTPError(.invalidRequest, code: .badURL, "\(URLRedaction.redact(url)) cannot be downloaded.")
        }
        guard entries.count < configuration.maximumDownloads else {
            throw HTTPError(.invalidRequest, code: .tooManyDownloads,
                            "\(configuration.maximumDownloads) downloads are held; remove finished ones first.")
        }
        let name = fileName.flatMap { DownloadFileName.isSafe($0) ? $0 : nil }
            ?? DownloadFileName.choose(contentDisposition: nil, url: url)
        let id = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        var record = DownloadRecord(id: id, op: .add)
        record.url = Self.storable(url)
        record.place = Self.place(url)
        record.fileName = name
        try HTTPError.file { () throws(SupportError) in try log.append(record) }
        entries[id] = Entry(url: url, place: Self.place(url), fileName: name, state: .queued)
        order.append(id)
        channel.offer(DownloadEvent(id: id, kind: .added))
        schedule()
        return id
    }

    /// Pauses a download: its transfer stops and its partial file is kept.
    /// - Throws: `unknown-download`; the state log's `file` errors.
    public func pause(_ id: String) throws(HTTPError) {
        var entry = try existing(id)
        guard !entry.state.isTerminal, entry.state != .paused else { return }
        try HTTPError.file { () throws(SupportError) in try log.append(DownloadRecord(id: id, op: .pause)) }
        entry.worker?.cancel()
        entry.worker = nil
        entry.generation += 1
        entry.state = .paused
        entries[id] = entry
        channel.offer(DownloadEvent(id: id, kind: .paused))
        schedule()
    }

    /// Resumes a paused, failed or restored download; `url` replaces a URL that was not stored
    /// (it must name the same host and path).
    /// - Throws: `unknown-download`, `url-mismatch`, `url-needed`; the state log's `file` errors.
    public func resume(_ id: String, url: URL? = nil) throws(HTTPError) {
        var entry = try existing(id)
        if let url {
            guard Self.place(url) == entry.place else {
                throw HTTPError(.invalidRequest, code: .urlMismatch, "\(URLRedaction.redact(url)) is not the URL of download \(id).")
            }
            var record = DownloadRecord(id: id, op: .url)
            record.url = Self.storable(url)
            try HTTPError.file { () throws(SupportError) in try log.append(record) }
            entry.url = url
        }
        guard entry.url != nil else {
            throw HTTPError(.invalidRequest, code: .urlNeeded, "Download \(id) was restored without its URL; give it again.")
        }
        switch entry.state {
        case .paused, .needsURL, .failed:
            try HTTPError.file { () throws(SupportError) in try log.append(DownloadRecord(id: id, op: .resume)) }
            entry.state = .queued
            entries[id] = entry
            schedule()
        default:
            entries[id] = entry
        }
    }

    /// Removes a download: its transfer stops and its partial file is deleted (a published file
    /// stays).
    /// - Throws: `unknown-download`; the state log's `file` errors.
    public func remove(_ id: String) throws(HTTPError) {
        let entry = try existing(id)
        try HTTPError.file { () throws(SupportError) in try log.append(DownloadRecord(id: id, op: .remove)) }
        entry.worker?.cancel()
        entries[id] = nil
        order.removeAll { $0 == id }
        unlink(Self.partialPath(folder, id))
        channel.offer(DownloadEvent(id: id, kind: .removed))
        compactIfWorthIt()
        schedule()
    }

    /// Every download, in the order they were added.
    public var items: [DownloadItem] {
        order.compactMap { id in
            entries[id].map { DownloadItem(id: id, url: $0.url, fileName: $0.fileName, state: $0.state,
                                           bytesReceived: $0.received, totalBytes: $0.total) }
        }
    }

    /// Stops every transfer (their downloads continue on the next start) and ends `events`.
    public func shutdown() {
        isStarted = false
        for (id, entry) in entries {
            entry.worker?.cancel()
            entries[id]?.worker = nil
            entries[id]?.generation += 1
        }
        channel.finish()
    }

    // MARK: Scheduling

    private func existing(_ id: String) throws(HTTPError) -> Entry {
        guard let entry = entries[id] else {
            throw HTTPError(.invalidRequest, code: .unknownDownload, "There is no download \(id).")
        }
        return entry
    }

    func schedule() {
        guard isStarted else { return }
        var running = entries.values.filter { $0.state == .running }.count
        for id in order where running < configuration.maximumConcurrent {
            guard var entry = entries[id], entry.state == .queued else { continue }
            entry.state = .running
            entry.generation += 1
            let generation = entry.generation
            entry.worker = Task { await self.transfer(id, generation: generation) }
            entries[id] = entry
            running += 1
        }
    }

    /// Whether `generation` is still the download's current run (pause, remove or shutdown end it).
    func isCurrent(_ id: String, _ generation: Int) -> Bool {
        entries[id]?.generation == generation && !Task.isCancelled
    }

}
