import Testing
@testable import TesseraMedia

@Suite("TSTimestampRebaser")
struct TSTimestampRebaserTests {
    private func segment(streams: [(UInt8, UInt16)], pts: UInt64) -> [UInt8] {
        TSBuilder.packets(of: TSBuilder.pat(pmtPID: 0x1000), pid: 0)
            + TSBuilder.packets(of: TSBuilder.pmt(streams, descriptorBytes: 150), pid: 0x1000)
            + TSBuilder.pes(pid: 0x100, pts: pts + 3600, dts: pts, pcr: pts)
            + TSBuilder.pes(pid: 0x100, counter: 1, pts: pts + 7200, dts: pts + 3600)
    }

    @Test("a program map spanning packets is read: a run whose streams differ is refused")
    func multiPacketProgramChange() throws {
        var rebaser = TSTimestampRebaser()
        // The third stream's entry lies in the PMT's second packet.
        var first = segment(streams: [(0x1B, 0x100), (0x0F, 0x101), (0x15, 0x102)], pts: 900_000)
        try rebaser.rebase(&first, startsRun: false)
        var same = segment(streams: [(0x1B, 0x100), (0x0F, 0x101), (0x15, 0x102)], pts: 90_000)
        try rebaser.rebase(&same, startsRun: true)
        var other = segment(streams: [(0x1B, 0x100), (0x0F, 0x101), (0x15, 0x103)], pts: 90_000)
        #expect(throws: MediaError.self) { try rebaser.rebase(&other, startsRun: true) }
    }

    @Test("a run that jumps back is moved to follow the previous one by a frame, in place")
    func moved() throws {
        var rebaser = TSTimestampRebaser()
        var first = segment(streams: [(0x1B, 0x100)], pts: 900_000)
        try rebaser.rebase(&first, startsRun: false)
        var second = segment(streams: [(0x1B, 0x100)], pts: 90_000)
        try rebaser.rebase(&second, startsRun: true)
        let (dts, pcr) = TSTimestampRebaser.firstTimes(second)
        // The first run's last DTS is 903_600 with a 3_600 step: the second run starts at 907_200.
        #expect(dts == 907_200)
        #expect(pcr == 907_200)
        #expect(rebaser.isShifting)
    }
}
