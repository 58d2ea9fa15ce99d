import Testing
@testable import TesseraPlayback

@Suite("SlowClientWatchdog")
struct SlowClientWatchdogTests {
    @Test("a kept-alive client that kept sending past the header deadline without completing a head is cut")
    func trickler() {
        #expect(SlowClientWatchdog.shouldCut(phase: .keptAlive, phaseAge: .seconds(6), millisecondsSinceReceive: 300,
                                             headerDeadline: .seconds(5)))
    }

    @Test("a connection that has not sent one complete request head by the deadline is cut, silent or trickling")
    func opening() {
        #expect(SlowClientWatchdog.shouldCut(phase: .opening, phaseAge: .seconds(6), millisecondsSinceReceive: -1,
                                             headerDeadline: .seconds(5)))
        #expect(!SlowClientWatchdog.shouldCut(phase: .opening, phaseAge: .seconds(4), millisecondsSinceReceive: -1,
                                              headerDeadline: .seconds(5)))
    }

    @Test("an idle keep-alive connection (nothing received in this phase) is left to the idle timeout")
    func idle() {
        #expect(!SlowClientWatchdog.shouldCut(phase: .keptAlive, phaseAge: .seconds(11), millisecondsSinceReceive: 11_100,
                                              headerDeadline: .seconds(5)))
    }

    @Test("nothing kept alive is cut before the deadline, or when the kernel cannot say")
    func early() {
        #expect(!SlowClientWatchdog.shouldCut(phase: .keptAlive, phaseAge: .seconds(4), millisecondsSinceReceive: 10,
                                              headerDeadline: .seconds(5)))
        #expect(!SlowClientWatchdog.shouldCut(phase: .keptAlive, phaseAge: .seconds(30), millisecondsSinceReceive: -1,
                                              headerDeadline: .seconds(5)))
    }
}
