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
///   continue from their partial files. A URL with a query (often signed) is not stored: such a
///   download comes back as `needsURL` until `resume(_:url:)` gives a fresh URL for the same
///   host and path.
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

    private struct Entry {
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

    private let client: HTTPClient
    private let folder: URL
    private let configuration: Configuration
    private let sleep: @Sendable (Duration) async throws -> Void
    private let wallClock: @Sendable () -> Int64
    private let log: AppendOnlyLog<DownloadRecord>
    private let channel = DownloadEventChannel()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var isStarted = false

    /// The manager's events (one consumer).
    public nonisolated var events: DownloadEvents { DownloadEvents(channel: channel) }

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
            throw HTTPError(.file, code: "destination-unwritable", "The download folder \(folder.path) cannot be created.")
        }
        log = try AppendOnlyLog(file: stateFile)
        for record in log.opened { Self.replay(record, into: &entries, order: &order) }
        for id in order {
            guard var entry = entries[id] else { continue }
            entry.received = Self.partialSize(folder, id)
            if entry.state == .running || entry.state == .queued { entry.state = entry.url == nil ? .needsURL : .queued }
            entries[id] = entry
            channel.emit(DownloadEvent(id: id, kind: .added))
        }
    }

    /// Begins transferring queued downloads.
    public func start() {
        isStarted = true
        schedule()
    }

    /// Adds a download of `url`; returns its id.
    /// - Throws: `invalid-request` for a URL that is not http(s) or carries user-info; the state
    ///   log's `file` errors.
    @discardableResult
    public func add(_ url: URL, fileName: String? = nil) throws(HTTPError) -> String {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil, url.user == nil else {
            throw HTTPError(.invalidRequest, code: "bad-url", "\(URLRedaction.redact(url)) cannot be downloaded.")
        }
        let name = fileName.flatMap { DownloadFileName.isSafe($0) ? $0 : nil }
            ?? DownloadFileName.choose(contentDisposition: nil, url: url)
        let id = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        var record = DownloadRecord(id: id, op: .add)
        record.url = url.query == nil ? url.absoluteString : nil
        record.place = Self.place(url)
        record.fileName = name
        try log.append(record)
        entries[id] = Entry(url: url, place: Self.place(url), fileName: name, state: .queued)
        order.append(id)
        channel.emit(DownloadEvent(id: id, kind: .added))
        schedule()
        return id
    }

    /// Pauses a download: its transfer stops and its partial file is kept.
    /// - Throws: `unknown-download`; the state log's `file` errors.
    public func pause(_ id: String) throws(HTTPError) {
        var entry = try existing(id)
        guard !entry.state.isTerminal, entry.state != .paused else { return }
        try log.append(DownloadRecord(id: id, op: .pause))
        entry.worker?.cancel()
        entry.worker = nil
        entry.generation += 1
        entry.state = .paused
        entries[id] = entry
        channel.emit(DownloadEvent(id: id, kind: .paused))
        schedule()
    }

    /// Resumes a paused, failed or restored download; `url` replaces a URL that was not stored
    /// (it must name the same host and path).
    /// - Throws: `unknown-download`, `url-mismatch`, `url-needed`; the state log's `file` errors.
    public func resume(_ id: String, url: URL? = nil) throws(HTTPError) {
        var entry = try existing(id)
        if let url {
            guard Self.place(url) == entry.place else {
                throw HTTPError(.invalidRequest, code: "url-mismatch", "\(URLRedaction.redact(url)) is not the URL of download \(id).")
            }
            var record = DownloadRecord(id: id, op: .url)
            record.url = url.query == nil ? url.absoluteString : nil
            try log.append(record)
            entry.url = url
        }
        guard entry.url != nil else {
            throw HTTPError(.invalidRequest, code: "url-needed", "Download \(id) was restored without its URL; give it again.")
        }
        switch entry.state {
        case .paused, .needsURL, .failed:
            try log.append(DownloadRecord(id: id, op: .resume))
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
        try log.append(DownloadRecord(id: id, op: .remove))
        entry.worker?.cancel()
        entries[id] = nil
        order.removeAll { $0 == id }
        unlink(Self.partialPath(folder, id))
        channel.emit(DownloadEvent(id: id, kind: .removed))
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
            throw HTTPError(.invalidRequest, code: "unknown-download", "There is no download \(id).")
        }
        return entry
    }

    private func schedule() {
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
    private func isCurrent(_ id: String, _ generation: Int) -> Bool {
        entries[id]?.generation == generation && !Task.isCancelled
    }

    private func transfer(_ id: String, generation: Int) async {
        let judged = HTTPRequest(url: entries[id]?.url ?? folder)
        var retries = RetryStateMachine(policy: configuration.retry, request: judged)
        var budget = RetryBudget(capacity: Double(configuration.retry.maximumAttempts))
        var random = SystemRandomNumberGenerator()
        while isCurrent(id, generation) {
            let before = entries[id]?.received ?? 0
            let outcome = await attempt(id, generation: generation)
            guard isCurrent(id, generation), let outcome else { return }
            if (entries[id]?.received ?? 0) > before {
                // Progress was made: the retries in a row start again.
                retries = RetryStateMachine(policy: configuration.retry, request: judged)
                budget = RetryBudget(capacity: Double(configuration.retry.maximumAttempts))
            }
            switch retries.decide(after: outcome, now: wallClock(), budget: &budget, using: &random) {
            case .retry(let delay):
                channel.emit(DownloadEvent(id: id, kind: .retrying(attempt: retries.attempts, delay: delay, reason: Self.reason(outcome))))
                do { try await sleep(delay) } catch { return }
            case .stop:
                fail(id, Self.failure(outcome))
                return
            }
        }
    }

    /// One transfer; nil when it completed (or was published), else the outcome to judge.
    private func attempt(_ id: String, generation: Int) async -> RetryStateMachine.Outcome? {
        guard let entry = entries[id], let url = entry.url else { return nil }
        let file: ResumableFile
        do throws(HTTPError) { file = try ResumableFile(path: Self.partialPath(folder, id)) } catch { return .failure(error) }
        let offset = file.size
        var request = HTTPRequest(url: url)
        request.limits = configuration.limits
        request.rangeFallback = .whole
        if offset > 0 {
            request.byteRange = ByteRange(offset: UInt64(offset), length: nil)
            if let validator = entry.etag.flatMap({ $0.hasPrefix("W/") ? nil : $0 }) ?? entry.lastModified {
                request.headers.set("If-Range", validator)
            }
        }
        channel.emit(DownloadEvent(id: id, kind: .started(offset: offset)))
        do throws(HTTPError) {
            let response = try await client.stream(request, accepting: .any)
            let head = response.head
            switch head.status {
            case 206:
                break
            case 200:
                if offset > 0 {
                    try file.truncate()
                    channel.emit(DownloadEvent(id: id, kind: .restarted))
                }
            case 416 where offset > 0 && head.headers["Content-Range"].flatMap(ContentRange.unsatisfiedLength) == UInt64(offset):
                response.body.discard()
                entries[id]?.total = offset
                publish(id, file)
                return nil
            default:
                response.body.discard()
                return .response(status: head.status, headers: head.headers)
            }
            try remember(id, head)
            let total = entries[id]?.total
            var received = file.size
            for try await chunk in response.body {
                guard isCurrent(id, generation) else {
                    file.sync()
                    return nil
                }
                try file.append(chunk)
                received += Int64(chunk.count)
                entries[id]?.received = received
                channel.emit(DownloadEvent(id: id, kind: .progress(TransferProgress(completed: received, expected: total))))
            }
            if let total, received != total {
                return .failure(HTTPError(.connectionLost, code: "short-body", "\(URLRedaction.redact(url)) ended at \(received) of \(total) bytes."))
            }
            guard isCurrent(id, generation) else { return nil }
            publish(id, file)
            return nil
        } catch {
            file.sync()
            entries[id]?.received = file.size
            return isCurrent(id, generation) ? .failure(error) : nil
        }
    }

    /// Stores the validators and total size a response announced.
    private func remember(_ id: String, _ head: HTTPResponseHead) throws(HTTPError) {
        guard var entry = entries[id] else { return }
        let total: Int64? = switch head.servedRange {
        case .partial(let range): range.completeLength.map { Int64($0) }
        default: head.headers["Content-Length"].flatMap { Int64($0) }
        }
        let etag = head.headers["ETag"]
        let modified = head.headers["Last-Modified"]
        guard etag != entry.etag || modified != entry.lastModified || total != entry.total else { return }
        var record = DownloadRecord(id: id, op: .validator)
        record.etag = etag
        record.lastModified = modified
        record.total = total
        try log.append(record)
        entry.etag = etag
        entry.lastModified = modified
        entry.total = total
        entries[id] = entry
    }

    private func publish(_ id: String, _ file: ResumableFile) {
        guard let entry = entries[id] else { return }
        do throws(HTTPError) {
            let published = try file.publish(to: Self.candidates(folder, entry.fileName))
            var record = DownloadRecord(id: id, op: .complete)
            record.path = published.path
            try log.append(record)
            entries[id]?.state = .completed(published)
            entries[id]?.worker = nil
            entries[id]?.received = entry.total ?? entries[id]?.received ?? 0
            channel.emit(DownloadEvent(id: id, kind: .completed(published)))
            schedule()
        } catch {
            fail(id, error)
        }
    }

    private func fail(_ id: String, _ error: HTTPError) {
        var record = DownloadRecord(id: id, op: .fail)
        record.code = error.code
        record.message = error.message
        do throws(HTTPError) { try log.append(record) } catch { _ = error }   // the failure itself is what is reported
        entries[id]?.state = .failed(code: error.code, message: error.message)
        entries[id]?.worker = nil
        channel.emit(DownloadEvent(id: id, kind: .failed(code: error.code, message: error.message)))
        schedule()
    }

    /// Rewrites the log as one snapshot when most of it is history.
    private func compactIfWorthIt() {
        guard log.lineCount > 256, log.lineCount > 8 * max(1, entries.count) else { return }
        var records: [DownloadRecord] = []
        for id in order {
            guard let entry = entries[id] else { continue }
            records += Self.snapshot(id, entry)
        }
        do throws(HTTPError) { try log.compact(records) } catch { _ = error }   // the long log stays valid
    }

    // MARK: Helpers

    private static func snapshot(_ id: String, _ entry: Entry) -> [DownloadRecord] {
        var add = DownloadRecord(id: id, op: .add)
        add.url = entry.url.flatMap { $0.query == nil ? $0.absoluteString : nil }
        add.place = entry.place
        add.fileName = entry.fileName
        var validator = DownloadRecord(id: id, op: .validator)
        validator.etag = entry.etag
        validator.lastModified = entry.lastModified
        validator.total = entry.total
        var records = [add, validator]
        switch entry.state {
        case .paused: records.append(DownloadRecord(id: id, op: .pause))
        case .completed(let file):
            var complete = DownloadRecord(id: id, op: .complete)
            complete.path = file.path
            records.append(complete)
        case .failed(let code, let message):
            var fail = DownloadRecord(id: id, op: .fail)
            fail.code = code
            fail.message = message
            records.append(fail)
        default: break
        }
        return records
    }

    private static func replay(_ record: DownloadRecord, into entries: inout [String: Entry], order: inout [String]) {
        let id = record.id
        switch record.op {
        case .add:
            guard let place = record.place, let name = record.fileName, DownloadFileName.isSafe(name) else { return }
            entries[id] = Entry(url: record.url.flatMap(URL.init(string:)), place: place, fileName: name, state: .queued)
            if !order.contains(id) { order.append(id) }
        case .validator:
            entries[id]?.etag = record.etag
            entries[id]?.lastModified = record.lastModified
            entries[id]?.total = record.total
        case .pause: entries[id]?.state = .paused
        case .resume: entries[id]?.state = .queued
        case .url: if let url = record.url.flatMap(URL.init(string:)) { entries[id]?.url = url }
        case .complete: entries[id]?.state = .completed(URL(fileURLWithPath: record.path ?? ""))
        case .fail: entries[id]?.state = .failed(code: record.code ?? "failed", message: record.message ?? "")
        case .remove:
            entries[id] = nil
            order.removeAll { $0 == id }
        }
    }

    /// Host, port and path: what a URL given again must match.
    private static func place(_ url: URL) -> String {
        "\(url.host?.lowercased() ?? ""):\(url.port.map(String.init) ?? "")\(url.path)"
    }

    private static func partialPath(_ folder: URL, _ id: String) -> String {
        folder.appendingPathComponent(".\(id).tessera-download").path
    }

    private static func partialSize(_ folder: URL, _ id: String) -> Int64 {
        let size = (try? FileManager.default.attributesOfItem(atPath: partialPath(folder, id)))?[.size] as? Int
        return Int64(size ?? 0)
    }

    /// `name.ext`, `name (1).ext`, … `name (99).ext`.
    private static func candidates(_ folder: URL, _ name: String) -> [URL] {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        return [folder.appendingPathComponent(name)] + (1..<100).map { folder.appendingPathComponent("\(stem) (\($0))\(ext)") }
    }

    private static func reason(_ outcome: RetryStateMachine.Outcome) -> String {
        switch outcome {
        case .response(let status, _): "status \(status)"
        case .failure(let error): error.code
        }
    }

    private static func failure(_ outcome: RetryStateMachine.Outcome) -> HTTPError {
        switch outcome {
        case .response(let status, _):
            var error = HTTPError(.status, code: "unacceptable-status", "The download was answered \(status).")
            error.status = status
            return error
        case .failure(let error): return error
        }
    }
}
