import Foundation
import TesseraHLS
import TesseraLive

/// `tessera record --channels`'s list, fed hostile bytes. Rejection is expected; an accepted list
/// must hold valid, unique names and http(s) URLs on increasing lines, and read back as itself
/// once every word is written single-quoted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChannelList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // Rejecting hostile bytes is expected; only an accepted list has invariants to keep.
    guard let list = try? ChannelList(parsing: bytes) else { return 0 }
    precondition(Set(list.entries.map(\.name)).count == list.entries.count, "a name twice")
    precondition(list.entries.allSatisfy { ChannelList.isValidName($0.name) && ["http", "https"].contains($0.url.scheme?.lowercased()) }, "a bad entry")
    precondition(zip(list.entries, list.entries.dropFirst()).allSatisfy { $0.line < $1.line }, "lines out of order")
    func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let text = list.entries.map { ([$0.name, $0.url.absoluteString] + $0.arguments).map(quoted).joined(separator: " ") }.joined(separator: "\n")
    // Its own words, single-quoted, must read again: a refusal here is the bug looked for.
    guard let again = try? ChannelList(parsing: Array(text.utf8)) else { preconditionFailure("an accepted list does not read back") }
    precondition(again.entries.map(\.name) == list.entries.map(\.name) && again.entries.map(\.arguments) == list.entries.map(\.arguments)
                 && again.entries.map(\.url) == list.entries.map(\.url), "the list reads back otherwise")
    return 0
}
