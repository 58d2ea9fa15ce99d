import Testing
import TesseraSupport

@Suite("Side by side: two pieces of work, both done, the first failure reported")
struct SideBySideTests {
    struct Failure: Error, Equatable { let name: String }

    @Test("both closures run once and their results are there when it returns")
    func bothRun() throws {
        let bytes = [UInt8](repeating: 7, count: 1 << 20)
        var sum = 0
        var copy: [UInt8] = []
        try SideBySide.run({ () throws(Failure) in sum = bytes.reduce(0) { $0 + Int($1) } }, { () throws(Failure) in copy = bytes })
        #expect(sum == 7 << 20)
        #expect(copy == bytes)
    }

    @Test("the first closure's error is reported when both fail; either alone is reported")
    func failures() {
        #expect(throws: Failure(name: "first")) {
            try SideBySide.run({ () throws(Failure) in throw Failure(name: "first") }, { () throws(Failure) in throw Failure(name: "second") })
        }
        #expect(throws: Failure(name: "second")) {
            try SideBySide.run({ () throws(Failure) in }, { () throws(Failure) in throw Failure(name: "second") })
        }
        var ran = false
        #expect(throws: Failure(name: "first")) {
            try SideBySide.run({ () throws(Failure) in throw Failure(name: "first") }, { () throws(Failure) in ran = true })
        }
        #expect(ran, "the second runs to its end even when the first fails")
    }

    @Test("below the worthwhile size the two run one after the other, in order, on the caller's thread")
    func small() throws {
        var order: [Int] = []
        try SideBySide.run(bytes: SideBySide.worthwhileBytes - 1, { () throws(Failure) in order.append(1) }, { () throws(Failure) in order.append(2) })
        #expect(order == [1, 2])
        #expect(throws: Failure(name: "first")) {
            try SideBySide.run(bytes: 10, { () throws(Failure) in throw Failure(name: "first") }, { () throws(Failure) in order.append(3) })
        }
        #expect(order == [1, 2], "one after the other: the second does not run after the first failed")
    }
}
