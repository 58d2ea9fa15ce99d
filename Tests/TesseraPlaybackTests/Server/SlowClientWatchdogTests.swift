import Testing
@testable import TesseraPlayback

@Suite("SlowClientWatchdog")
struct SlowClientWatchdogTests {
    @Test("a client that kept sending past the header deadline without completing a head is cut")
    func trickler() {
        #expect(SlowClientWatchdog.shouldCut(phaseAge: .seconds(11), millisecondsSinceReceive: 300,
                                             headerDeadline: .seconds(10)))
    }

    @Test("an idle keep-alive connection (nothing received in this phase) is left to the idle timeout")
    func idle() {
        #expect(!SlowClientWatchdog.shouldCut(phaseAge: .seconds(11), millisecondsSinceReceive: 11_100,
                                              headerDeadline: .seconds(10)))
    }

    @Test("nothing is cut before the deadline, or when the kernel cannot say")
    func early() {
        #expect(!SlowClientWatchdog.shouldCut(phaseAge: .seconds(9), millisecondsSinceReceive: 10,
                                              headerDeadline: .seconds(10)))
        #expect(!SlowClientWatchdog.shouldCut(phaseAge: .seconds(30), millisecondsSinceReceive: -1,
                                              headerDeadline: .seconds(10)))
    }
}
