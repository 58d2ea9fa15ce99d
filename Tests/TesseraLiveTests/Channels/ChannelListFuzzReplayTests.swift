import Foundation
import Testing
import TesseraLive
import TesseraTestSupport

@Suite("Channel list fuzz replay")
struct ChannelListFuzzReplayTests {
    @Test("every saved input keeps the invariants FuzzChannelList checks: an accepted list reads back as itself")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzChannelList")
        #expect(!inputs.isEmpty)
        var accepted = 0
        // As in the fuzz target: rejecting an input is fine; an accepted one keeps its invariants.
        for input in inputs {
            guard let list = try? ChannelList(parsing: input) else { continue }
            accepted += 1
            #expect(Set(list.entries.map(\.name)).count == list.entries.count)
            func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            let text = list.entries.map { ([$0.name, $0.url.absoluteString] + $0.arguments).map(quoted).joined(separator: " ") }.joined(separator: "\n")
            let again = try ChannelList(parsing: Array(text.utf8))
            #expect(again.entries.map(\.name) == list.entries.map(\.name) && again.entries.map(\.arguments) == list.entries.map(\.arguments))
            #expect(again.entries.map(\.url) == list.entries.map(\.url))
        }
        #expect(accepted > 0, "the saved lists include accepted ones")
    }
}
