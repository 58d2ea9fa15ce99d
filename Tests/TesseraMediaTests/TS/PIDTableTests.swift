import Testing
@testable import TesseraMedia

@Suite("PIDTable")
struct PIDTableTests {
    @Test("a PID without state reads nil or the default; setting gives it one, kept in first-seen order")
    func statesByPID() {
        var table = PIDTable<Int>()
        #expect(table.pids.isEmpty)
        #expect(table[0x100] == nil)
        #expect(table[0x100, default: 7] == 7)
        #expect(table.pids.isEmpty, "reading a default does not give the PID a state")
        table[0x1FFF, default: 0] = 1
        table[0, default: 0] = 2
        table[0x100, default: 0] += 5
        table[0x1FFF, default: 0] += 10
        #expect(table.pids == [0x1FFF, 0, 0x100])
        #expect(table[0x1FFF] == 11)
        #expect(table[0] == 2)
        #expect(table[0x100] == 5)
        #expect(table[0x101] == nil)
    }

    @Test("every state is changed in place, and every one of the 8,192 PIDs has a slot of its own")
    func everyPID() {
        var table = PIDTable<UInt16>()
        for pid in UInt16(0)..<(1 << 13) { table[pid, default: 0] = pid }
        table.updateAll { $0 &+= 1 }
        #expect(table.pids.count == 1 << 13)
        #expect((UInt16(0)..<(1 << 13)).allSatisfy { table[$0] == $0 + 1 })
    }
}
