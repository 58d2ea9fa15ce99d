import Foundation
import TesseraHTTP
import TesseraSupport

/// The durable record of what a partial file holds, beside the destination. Opened against the
/// current plan's fingerprint: a log written for another plan (playlist, byte ranges or key
/// changed) or a run without resume is discarded, and the job starts over.
final class CheckpointLog {
    private let log: AppendOnlyLog<CheckpointRecord>
    private let header: CheckpointRecord
    private let path: String
    /// Resource records of an existing log written for this plan, in order.
    let restorable: [CheckpointRecord]
    /// Why an existing checkpoint was discarded, when one was.
    let discarded: String?

    /// Opens the log at `path` for the plan `fingerprint`.
    /// - Throws: `destination-unwritable`.
    init(path: String, fingerprint: String, resume: Bool) throws(HLSError) {
        self.path = path
        header = .header(plan: fingerprint)
        do { log = try AppendOnlyLog(file: URL(fileURLWithPath: path)) } catch {
            throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be used: \(error.message)", cause: error)
        }
        let opened = log.opened
        let matches = opened.first == header
        restorable = matches && resume ? opened.dropFirst().filter { !$0.isHeader } : []
        discarded = switch (opened.isEmpty, matches, resume) {
        case (true, _, _): nil
        case (false, true, true): nil
        case (false, true, false): "resume was turned off"
        case (false, false, _): opened.first?.format == CheckpointRecord.currentFormat
            ? "the plan changed (playlist, byte ranges or key)" : "the checkpoint is from another format"
        }
    }

    /// Rewrites the log as the header and `records`.
    func reset(keeping records: [CheckpointRecord]) throws(HLSError) {
        do { try log.compact([header] + records) } catch {
            throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be written: \(error.message)", cause: error)
        }
    }

    /// Appends resource records durably.
    func append(_ records: [CheckpointRecord]) throws(HLSError) {
        do { try log.append(contentsOf: records) } catch {
            throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be written: \(error.message)", cause: error)
        }
    }

    /// Deletes the log (the job committed, or its partial file is gone).
    func remove() {
        unlink(path)
    }
}
