import Foundation
import Testing
@testable import TesseraHLS
import TesseraTestSupport
@testable import TesseraLive

/// The ledger under rolling retention: what it evicts is durable, and its logs stay bounded.
@Suite("Recording ledger: evictions durable, the eviction log bounded however long the recording")
struct RecordingLedgerTests {
    @Test("a hundred and fifty evictions leave an eviction log of a few lines whose last says all of them, and a timeline rewritten once; reopened, they restore what was kept")
    func boundedEvictionLog() throws {
        let folder = try TemporaryDirectory()
        let records = try RecordingEvictionTests.records(0...199).filter { $0.track == "video" }
        let timeline = try CheckpointLog<RecordingEntryRecord>(path: folder.url.path + "/timeline", fingerprint: "f", resume: false)
        let log = try CheckpointLog<RecordingEvictions>(path: folder.url.path + "/evictions", fingerprint: "f", resume: false)
        let ledger = RecordingLedger(timeline: timeline, evictionLog: log, holdsRecords: true)
        try ledger.append(records)
        for record in records.prefix(150) {
            try ledger.evict([record], bytes: 10, primary: "video")
            #expect(log.lineCount <= RecordingLedger.evictionLogLines + 1)
        }
        #expect(ledger.evictions.segments == 150 && ledger.evictions.bytes == 1_500)
        #expect(try ledger.entries().map(\.sequence) == Array(150...199))
        let reopened = try CheckpointLog<RecordingEvictions>(path: folder.url.path + "/evictions", fingerprint: "f", resume: true)
        #expect(reopened.restorable.last == ledger.evictions, "the last line holds every eviction")
        #expect(reopened.restorable.last?.manifest == [PackageManifest.Eviction(track: "video", firstMediaSequence: 0, lastMediaSequence: 149)])
        // The timeline log is rewritten once its evicted entries outnumber the kept ones (at the
        // hundredth eviction), and a resume drops what the eviction log covers.
        let restored = try CheckpointLog<RecordingEntryRecord>(path: folder.url.path + "/timeline", fingerprint: "f", resume: true)
        #expect(restored.restorable.map(\.sequence) == Array(100...199))
        #expect(restored.restorable.filter { !ledger.evictions.covers($0) }.map(\.sequence) == Array(150...199))
    }
}
