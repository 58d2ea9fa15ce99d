import Testing
@testable import TesseraHLS

@Suite("A position index finds every position it holds, through growth and shared hashes")
struct PositionIndexTests {
    @Test("ten thousand names indexed from an empty index (growing all the way) are each found at their position; others are not")
    func growth() {
        let names = (0..<10_000).map { "seg_\($0).ts" }
        var index = PositionIndex()
        for (position, name) in names.enumerated() {
            #expect(index.find(name.hashValue) { names[$0] == name } == nil)
            index.insert(name.hashValue, position: position)
        }
        #expect(index.count == names.count)
        for (position, name) in names.enumerated() {
            #expect(index.find(name.hashValue) { names[$0] == name } == position)
        }
        #expect(index.find("seg_10000.ts".hashValue) { names[$0] == "seg_10000.ts" } == nil)
    }

    @Test("elements that share one hash are told apart by the owner's match, after growth too")
    func sharedHash() {
        let words = (0..<100).map { "w\($0)" }
        var index = PositionIndex()
        index.reserveCapacity(3)
        for position in words.indices { index.insert(42, position: position) }
        for (position, word) in words.enumerated() {
            #expect(index.find(42) { words[$0] == word } == position)
        }
        #expect(index.find(42) { _ in false } == nil)
        #expect(index.find(43) { _ in true } == nil, "another hash finds nothing when no slot holds its tag")
    }

    @Test("reserving room keeps what is indexed")
    func reserve() {
        var index = PositionIndex()
        for position in 0..<5 { index.insert(position * 7, position: position) }
        index.reserveCapacity(1_000)
        for position in 0..<5 { #expect(index.find(position * 7) { $0 == position } == position) }
        #expect(index.count == 5)
    }
}
