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
import TesseraHTTP
import TesseraSupport

/// The durable record of what an output holds, beside it: a header naming the format and the
/// job's fingerprint, then one entry per resource made durable. Opened against the current
/// fingerprint: a log written for another job (playlist, byte ranges changed), in another
/// format, or a run without resume is discarded, and the output starts over. No URL, key or
/// query value is ever stored: entries hold digests.
package final class CheckpointLog<Entry: Codable & Equatable & Sendable> {
    /// One line of the log.
    package struct Line: Codable, Equatable {
        /// Header: the checkpoint format.
        var format: Int?
        /// Header: the job fingerprint (hex).
        var plan: String?
        /// An entry.
        var entry: Entry?
    }

    /// The format written now (older logs are discarded).
    package static var currentFormat: Int { 2 }

    private let log: AppendOnlyLog<Line>
    private let header: Line
    private let path: String
    /// The entries of an existing log written for this job, in order (until `releaseRestorable`).
    package private(set) var restorable: [Entry]
    /// Why an existing checkpoint was discarded, when one was.
    package let discarded: String?

    /// Opens the log at `path` for the job `fingerprint`; a new or discarded log is rewritten at
    /// once as this job's header.
    /// - Throws: `destination-unwritable`.
    package init(path: String, fingerprint: String, resume: Bool) throws(HLSError) {
        self.path = path
        header = Line(format: Self.currentFormat, plan: fingerprint)
        do { log = try AppendOnlyLog(file: URL(fileURLWithPath: path)) } catch {
            throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be used: \(error.message)", cause: error)
        }
        let opened = log.opened
        let matches = opened.first == header
        restorable = matches && resume ? opened.dropFirst().compactMap(\.entry) : []
        discarded = switch (opened.isEmpty, matches, resume) {
        case (true, _, _): nil
        case (false, true, true): nil
        case (false, true, false): "resume was turned off"
        case (false, false, _): opened.first?.format == Self.currentFormat
            ? "the plan changed (playlist or byte ranges)" : "the checkpoint is from another format"
        }
        log.releaseOpened()
        if !(matches && resume) {
            // A new or discarded log starts as this job's header alone.
            do { try log.compact([header]) } catch {
                throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be written: \(error.message)", cause: error)
            }
        }
    }

    /// Rewrites the log as the header and `entries`.
    /// - Throws: `destination-unwritable`.
    package func reset(keeping entries: [Entry]) throws(HLSError) {
        do { try log.compact([header] + entries.map { Line(entry: $0) }) } catch {
            throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be written: \(error.message)", cause: error)
        }
    }

    /// The lines the log holds (the header's included).
    package var lineCount: Int { log.lineCount }

    /// Appends entries durably (one write, one fsync).
    /// - Throws: `destination-unwritable`.
    package func append(_ entries: [Entry]) throws(HLSError) {
        do { try log.append(contentsOf: entries.map { Line(entry: $0) }) } catch {
            throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be written: \(error.message)", cause: error)
        }
    }

    /// Lets go of `restorable` once its entries are restored: a job running for days keeps
    /// none of its history in memory.
    package func releaseRestorable() {
        restorable = []
    }

    /// The entries the log holds now, read back from its file.
    /// - Throws: `destination-unwritable` when it cannot be read.
    package func entries() throws(HLSError) -> [Entry] {
        do { return try log.readBack().compactMap(\.entry) } catch {
            throw HLSError(.destinationUnwritable, "The checkpoint \(path) cannot be read back: \(error.message)", cause: error)
        }
    }

    /// Deletes the log (the job committed, or what it vouched for is gone).
    package func remove() {
        unlink(path)
    }
}
