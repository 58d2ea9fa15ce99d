#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// One download's transfers: resume from the partial file, retries, publication.
extension DownloadManager {
    func transfer(_ id: String, generation: Int) async {
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
                channel.offer(DownloadEvent(id: id, kind: .retrying(attempt: retries.attempts, delay: delay, reason: RetryStateMachine.reason(outcome))))
                do { try await sleep(delay) } catch { return }
            case .stop:
                fail(id, Self.failure(outcome))
                return
            }
        }
    }

    /// One transfer; nil when it completed (or was published), else the outcome to judge.
    func attempt(_ id: String, generation: Int) async -> RetryStateMachine.Outcome? {
        guard let entry = entries[id], let url = entry.url else { return nil }
        let file: StagingFile
        do throws(SupportError) {
            file = try StagingFile(destination: folder.appendingPathComponent(entry.fileName), policy: .keepBoth,
                                   resumableAt: Self.partialPath(folder, id))
        } catch {
            return .failure(HTTPError(file: error))
        }
        // Whatever ends this attempt short of publication leaves the partial file for the next.
        defer { file.keep() }
        let offset = Int64(file.size)
        var request = HTTPRequest(url: url)
        request.limits = configuration.limits
        request.rangeFallback = .whole
        if offset > 0 {
            request.byteRange = ByteRange(offset: UInt64(offset), length: nil)
            if let validator = entry.etag.flatMap({ $0.hasPrefix("W/") ? nil : $0 }) ?? entry.lastModified {
                request.headers.set("If-Range", validator)
            }
        }
        channel.offer(DownloadEvent(id: id, kind: .started(offset: offset)))
        do throws(HTTPError) {
            let response = try await client.stream(request, accepting: .any)
            let head = response.head
            switch head.status {
            case 206:
                break
            case 200:
                if offset > 0 {
                    try HTTPError.file { () throws(SupportError) in try file.truncate() }
                    channel.offer(DownloadEvent(id: id, kind: .restarted))
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
            var received = Int64(file.size)
            // A piece of up to 1 MiB at a time (one write, one progress event), not a network
            // chunk; a download paused, removed or restarted meanwhile stops at the next piece.
            var superseded = false
            let appender = file.appender
            do throws(HTTPError) {
                try await response.body.forEachPiece(upTo: Self.pieceBytes) { piece throws(HTTPError) in
                    guard isCurrent(id, generation) else {
                        superseded = true
                        throw Self.superseded
                    }
                    try HTTPError.file { () throws(SupportError) in try appender.append(piece) }
                    received += Int64(piece.count)
                    entries[id]?.received = received
                    channel.offer(DownloadEvent(id: id, kind: .progress(TransferProgress(completed: received, expected: total))))
                }
            } catch {
                guard superseded else { throw error }
                Self.flush(file)
                return nil
            }
            if let total, received != total {
                return .failure(HTTPError(.connectionLost, code: .shortBody, "\(URLRedaction.redact(url)) ended at \(received) of \(total) bytes."))
            }
            guard isCurrent(id, generation) else { return nil }
            publish(id, file)
            return nil
        } catch {
            Self.flush(file)
            entries[id]?.received = Int64(file.size)
            return isCurrent(id, generation) ? .failure(error) : nil
        }
    }

    /// The most bytes a transfer writes (and reports) at once.
    static let pieceBytes = 1 << 20

    /// What ends the read of a body whose download is no longer current (paused, removed, or
    /// started again): never reported.
    static let superseded = HTTPError(.cancelled, code: .cancelled, "The download was paused, removed or started again.")

    /// Stores the validators and total size a response announced.
    func remember(_ id: String, _ head: HTTPResponseHead) throws(HTTPError) {
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
        try HTTPError.file { () throws(SupportError) in try log.append(record) }
        entry.etag = etag
        entry.lastModified = modified
        entry.total = total
        entries[id] = entry
    }

    func publish(_ id: String, _ file: StagingFile) {
        guard let entry = entries[id] else { return }
        do throws(HTTPError) {
            let published = try HTTPError.file { () throws(SupportError) in try file.commit() }
            var record = DownloadRecord(id: id, op: .complete)
            record.path = published.path
            try HTTPError.file { () throws(SupportError) in try log.append(record) }
            entries[id]?.state = .completed(published)
            entries[id]?.worker = nil
            entries[id]?.received = entry.total ?? entries[id]?.received ?? 0
            channel.offer(DownloadEvent(id: id, kind: .completed(published)))
            schedule()
        } catch {
            fail(id, error)
        }
    }

    /// Makes what a paused or failed attempt wrote durable, so a crash afterwards keeps it. Best
    /// effort: a failed flush only means the next attempt may find fewer bytes, which resume copes with.
    static func flush(_ file: StagingFile) {
        do throws(SupportError) { try file.sync() } catch { _ = error }
    }

    func fail(_ id: String, _ error: HTTPError) {
        var record = DownloadRecord(id: id, op: .fail)
        record.code = error.code.rawValue
        record.message = error.message
        do throws(SupportError) { try log.append(record) } catch { _ = error }   // the failure itself is what is reported
        entries[id]?.state = .failed(code: error.code, message: error.message)
        entries[id]?.worker = nil
        channel.offer(DownloadEvent(id: id, kind: .failed(code: error.code, message: error.message)))
        schedule()
    }
}
