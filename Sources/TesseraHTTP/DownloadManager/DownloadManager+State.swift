#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The state log (replay, snapshot, compaction) and the naming rules of a `DownloadManager`.
extension DownloadManager {
    /// Rewrites the log as one snapshot when most of it is history.
    func compactIfWorthIt() {
        guard log.lineCount > 256, log.lineCount > 8 * max(1, entries.count) else { return }
        var records: [DownloadRecord] = []
        for id in order {
            guard let entry = entries[id] else { continue }
            records += Self.snapshot(id, entry)
        }
        do throws(SupportError) { try log.compact(records) } catch { _ = error }   // the long log stays valid
    }

    static func snapshot(_ id: String, _ entry: Entry) -> [DownloadRecord] {
        var add = DownloadRecord(id: id, op: .add)
        add.url = entry.url.flatMap(Self.storable)
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
            fail.code = code.rawValue
            fail.message = message
            records.append(fail)
        default: break
        }
        return records
    }

    static func replay(_ record: DownloadRecord, into entries: inout [String: Entry], order: inout [String]) {
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
        case .fail: entries[id]?.state = .failed(code: HTTPError.Code(record.code ?? "failed"), message: record.message ?? "")
        case .remove:
            entries[id] = nil
            order.removeAll { $0 == id }
        }
    }

    /// The SHA-256 of host, port and path: what a URL given again must match (a digest, so a
    /// token in the path never reaches the state file either).
    static func place(_ url: URL) -> String {
        SHA256Hasher.hash(Array("\(url.host?.lowercased() ?? ""):\(url.port.map(String.init) ?? "")\(url.path)".utf8)).hex
    }

    /// The URL as the state file may hold it: only when its event form — query values redacted,
    /// JWT-like path segments masked, user-info and fragment dropped — is the URL itself, i.e. it
    /// carries nothing secret-looking. Otherwise nil, and the download comes back as `needsURL`.
    static func storable(_ url: URL) -> String? {
        URLRedaction.forEvents(url) == url.absoluteString ? url.absoluteString : nil
    }

    static func partialPath(_ folder: URL, _ id: String) -> String {
        folder.appendingPathComponent(".\(id).tessera-download").path
    }

    static func partialSize(_ folder: URL, _ id: String) -> Int64 {
        // No partial file (never started, or removed by hand) means nothing received yet.
        let size = (try? FileManager.default.attributesOfItem(atPath: partialPath(folder, id)))?[.size] as? Int
        return Int64(size ?? 0)
    }


    static func failure(_ outcome: RetryStateMachine.Outcome) -> HTTPError {
        switch outcome {
        case .response(let status, _):
            var error = HTTPError(.status, code: .unacceptableStatus, "The download was answered \(status).")
            error.status = status
            return error
        case .failure(let error): return error
        }
    }
}
