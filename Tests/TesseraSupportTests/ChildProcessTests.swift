import Testing
@testable import TesseraSupport

@Suite("ChildProcess: spawn, capture, time limit, stop")
struct ChildProcessTests {
    @Test("the exit status and both outputs are captured")
    func capture() {
        let outcome = ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(outcome.status == 3 && outcome.output == "out\n" && outcome.errors == "err\n" && !outcome.timedOut)
    }

    @Test("a program past its time limit is killed and says so")
    func timeLimit() {
        let outcome = ChildProcess.run("/bin/sleep", ["30"], timeLimit: .milliseconds(50))
        #expect(outcome.timedOut && outcome.status == 128 + 9)
    }

    @Test("a stopped run kills the program without calling it a timeout, whether stopped before or while it runs")
    func stop() async {
        let early = ChildProcess.Stopper()
        early.stop()
        let before = await ChildProcess.run("/bin/sleep", ["30"], timeLimit: .seconds(30), stopper: early)
        #expect(!before.timedOut && before.status == 128 + 9)
        let stopper = ChildProcess.Stopper()
        async let running = ChildProcess.run("/bin/sh", ["-c", "echo started; exec sleep 30"], timeLimit: .seconds(30), stopper: stopper)
        stopper.stop()
        let outcome = await running
        #expect(!outcome.timedOut && outcome.status == 128 + 9)
    }

    @Test("a program that cannot start has status -1 and the reason")
    func missing() {
        let outcome = ChildProcess.run("/nonexistent/tool", [])
        #expect(outcome.status == -1 || outcome.status == 127)
    }
}
