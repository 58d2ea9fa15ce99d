import CCurl
import Dispatch
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// One OS thread owning one curl multi handle and one share handle (DNS cache, TLS sessions).
///
/// Confinement: `multi`, `share`, `active`, the deferred resumes and every easy handle inside the
/// multi are touched only by the multi's driver — the loop thread, or a caller that found the loop
/// idle (`driveInline`) — one at a time, handed over under the `driver` lock. Other threads talk to
/// the driver only through `submit`, which appends to a locked inbox and wakes it
/// (`curl_multi_wakeup`, documented as safe from any thread, or the idle loop's semaphore).
/// Cancellation and shutdown are a flag plus a wake-up; only `driveInline` blocks its caller, and
/// for a bounded time.
///
/// Why a caller may drive: with nothing in flight the loop thread waits, and a request from a task
/// on the global executor would otherwise cross two threads — the caller wakes the loop, the loop
/// wakes a pool thread for the answer — each a wake-up of a sleeping thread that costs as much as
/// a small request on loopback (docs/HTTP.md, "Callers drive when the engine is idle"). A caller
/// that drives the transfer itself crosses none, as the curl CLI does.
final class CurlEngine: @unchecked Sendable {
    enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
        case unpause(CurlTransfer)
    }

    private struct Inbox {
        var commands: [Command] = []
        var isStopping = false
    }

    /// Who drives the multi handle.
    private enum Driver {
        /// The loop thread.
        case engine
        /// Nobody: the loop thread waits on `idleWake`, nothing is in flight.
        case idle
        /// A caller in `driveInline` (the loop thread still waits).
        case caller
        /// Nobody, ever again: the loop has ended and freed the multi.
        case closed
    }

    let configuration: CurlTransport.Configuration
    /// Easy handles reused between transfers.
    let handles = CurlHandlePool()
    private let share: OpaquePointer?
    private let multi: OpaquePointer
    private let inbox = Lock(Inbox())
    private let driver = Lock(Driver.engine)
    /// Signalled once for each hand-over of the multi back to the waiting loop thread (a move of
    /// `driver` from `.idle` or `.caller` to `.engine`).
    private let idleWake = DispatchSemaphore(value: 0)
    /// Whether nothing drives the multi: the loop thread waits, and a caller may drive (tests).
    var isIdle: Bool { driver.withLock { $0 == .idle } }
    /// Whether a caller drives the multi now (tests).
    var isCallerDriving: Bool { driver.withLock { $0 == .caller } }
    /// Caller drives whose transfer ended or paused while its caller drove it.
    private let callerDrivesSettled = Atomic<Int>(0)
    /// Caller drives that handed the multi back to the loop thread with work in flight.
    private let callerDrivesHandedBack = Atomic<Int>(0)
    /// Both counts (tests).
    var callerDrives: (settled: Int, handedBack: Int) {
        (callerDrivesSettled.load(ordering: .relaxed), callerDrivesHandedBack.load(ordering: .relaxed))
    }
    /// Set by `submit` once a command is in the inbox; cleared by the loop as it takes them.
    private let hasCommands = Atomic<Bool>(false)
    /// Whether the loop is (about to be) blocked in `curl_multi_poll`: only then does `submit`
    /// need `curl_multi_wakeup` (a write the loop must be woken for and read back).
    private let isPolling = Atomic<Bool>(false)
    private var active: [OpaquePointer: CurlTransfer] = [:]
    /// Runs tasks that prefer it on the loop thread, after each iteration's resumes.
    private(set) var executor: LoopExecutor!
    /// Continuation resumes collected during one loop iteration, run at its end (loop thread only).
    private var deferredResumes: [() -> Void] = []

    /// Time since the engine started, on its clock (time-to-first-byte deadlines).
    private let elapsed: @Sendable () -> Duration

    init(configuration: CurlTransport.Configuration, elapsed: @escaping @Sendable () -> Duration) throws(HTTPError) {
        self.elapsed = elapsed
        guard CurlGlobal.initialised, let multi = curl_multi_init() else {
            throw HTTPError(.internal, code: .curlInit, "libcurl could not be initialised.")
        }
        self.configuration = configuration
        self.multi = multi
        share = curl_share_init()
        if let share {
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
            _ = ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        }
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maximumConnectionsPerHost)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maximumConnections)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, configuration.maximumConnections)
        // Unowned: called only before close(), which the loop (holding the engine) makes before
        // curl_multi_cleanup.
        executor = LoopExecutor { [unowned self] in self.wake() }
        // Not ready until the thread has adopted the executor: a job enqueued before that would
        // run on the global executor instead (a task preferring this one would start off it).
        let adopted = DispatchSemaphore(value: 0)
        try LoopThread.start { [self] in
            executor.adoptCurrentThread()
            adopted.signal()
            self.run()
        }
        adopted.wait()
    }

    /// Hands a command to the loop. An `add` after shutdown fails the transfer at once.
    func submit(_ command: Command) {
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.isStopping else { return false }
            inbox.commands.append(command)
            return true
        }
        if accepted {
            hasCommands.store(true, ordering: .sequentiallyConsistent)
            wake()
        } else if case .add(let transfer) = command {
            transfer.finish(.failure(Self.shutdownError(transfer)), onLoopThread: false)
        }
    }

    /// Asks the loop to end every transfer and exit. Returns at once; a second call does nothing.
    func stop() {
        let first = inbox.withLock { inbox -> Bool in
            defer { inbox.isStopping = true }
            return !inbox.isStopping
        }
        guard first else { return }
        hasCommands.store(true, ordering: .sequentiallyConsistent)
        wake(always: true)
    }

    /// Gets the driver's attention for a command or a job: hands the multi back to an idle loop
    /// thread, else wakes whoever polls (`always`: even if it has not started polling yet).
    /// The wake-up is written under the `driver` lock, so never to a multi the loop has freed.
    private func wake(always: Bool = false) {
        let handsBack = driver.withLock { driver -> Bool in
            switch driver {
            case .idle:
                driver = .engine
                return true
            case .engine, .caller:
                if always || isPolling.load(ordering: .sequentiallyConsistent) { _ = curl_multi_wakeup(multi) }
                return false
            case .closed:
                return false
            }
        }
        if handsBack { idleWake.signal() }
    }

    // MARK: A caller driving

    /// When the loop is idle, adds `transfer` and drives the multi on the calling thread until the
    /// transfer has ended or paused (its buffer full), or the configuration's `callerDriveBudget`
    /// has passed, then hands the multi
    /// back (to the loop thread when anything is left in flight or a task waits for the loop's
    /// executor). Returns whether it added the transfer; false: the loop is busy (`submit` it).
    /// No more callers drive at once than the configuration's `CallerDriveLimit` allows (by
    /// default the process's, shared by every engine, which leaves the cooperative pool a thread).
    func driveInline(_ transfer: CurlTransfer) -> Bool {
        let limit = configuration.callerDriveLimit
        guard configuration.callerDriveBudget > .zero, limit.enter() else { return false }
        defer { limit.leave() }
        guard driver.withLock({ driver -> Bool in
            guard driver == .idle else { return false }
            driver = .caller
            return true
        }) else { return false }
        apply(.add(transfer))
        let clock = ContinuousClock()
        let deadline = clock.now + configuration.callerDriveBudget
        var needsLoop = false
        while true {
            guard let wait = iterate() else {
                needsLoop = true   // the loop thread ends every transfer and cleans up
                break
            }
            if transfer.shared.withLock({ $0.end != nil || $0.isPaused }) {
                callerDrivesSettled.add(1, ordering: .relaxed)
                break
            }
            if executor.hasJobs {
                needsLoop = true   // tasks that prefer the loop's executor run on its thread only
                break
            }
            let remaining = deadline - clock.now
            guard remaining > .zero else { break }
            poll(wait: min(wait, max(1, CurlTransfer.milliseconds(remaining))))
        }
        runDeferredResumes()
        let handsBack = needsLoop || !active.isEmpty
        driver.withLock { $0 = handsBack ? .engine : .idle }
        if handsBack {
            callerDrivesHandedBack.add(1, ordering: .relaxed)
            idleWake.signal()
        } else if hasCommands.load(ordering: .sequentiallyConsistent) || executor.hasJobs {
            wake()   // came in as it let go
        }
        return true
    }

    // MARK: Loop thread

    /// Runs `resume` at the end of this loop iteration, after curl has handed over everything the
    /// sockets held: a reader woken for a response head then usually finds its body, and the
    /// body's end, already buffered — one thread wake-up per small response instead of three.
    func resumeAtEndOfIteration(_ resume: @escaping () -> Void) {
        deferredResumes.append(resume)
    }

    private func runDeferredResumes() {
        while !deferredResumes.isEmpty {
            let batch = deferredResumes
            deferredResumes.removeAll(keepingCapacity: true)
            for resume in batch { resume() }
        }
    }

    /// Waits in `curl_multi_poll` for socket activity, a command or `wait` ms — unless a command
    /// came in since the inbox was last taken (then `submit` may not have woken the loop).
    private func poll(wait: Int) {
        isPolling.store(true, ordering: .sequentiallyConsistent)
        if !hasCommands.load(ordering: .sequentiallyConsistent), !executor.hasJobs {
            var events: Int32 = 0
            _ = curl_multi_poll(multi, nil, 0, Int32(wait), &events)
        }
        isPolling.store(false, ordering: .sequentiallyConsistent)
    }

    /// One turn of the multi, by its driver: the commands, curl's work, the finished transfers,
    /// the overdue heads, the resumes. Returns how long the driver may poll, in ms; nil once the
    /// engine is stopping (nothing of curl's ran: the loop thread ends what is in flight).
    private func iterate() -> Int? {
        hasCommands.store(false, ordering: .sequentiallyConsistent)
        let (commands, stopping) = inbox.withLock { inbox in
            defer { inbox.commands.removeAll() }
            return (inbox.commands, inbox.isStopping)
        }
        for command in commands { apply(command) }
        if stopping { return nil }
        var running: Int32 = 0
        _ = curl_multi_perform(multi, &running)
        drainCompleted()
        let wait = expireDeadlines()
        runDeferredResumes()
        return wait
    }

    private func run() {
        while let wait = iterate() {
            executor.runJobs()
            // A task on the loop's executor has usually just sent its next request: its command
            // is in the inbox, so the loop goes round again instead of letting go.
            if active.isEmpty, !hasCommands.load(ordering: .sequentiallyConsistent), !executor.hasJobs {
                waitWhileIdle()
            } else {
                poll(wait: wait)
            }
        }
        for (_, transfer) in active { remove(transfer, result: .failure(Self.shutdownError(transfer))) }
        runDeferredResumes()
        // Commands that raced with the stop flag.
        for command in inbox.withLock({ $0.commands }) {
            if case .add(let transfer) = command { transfer.finish(.failure(Self.shutdownError(transfer))) }
        }
        runDeferredResumes()
        executor.runJobs()
        executor.close()   // later jobs run on the global executor
        driver.withLock { $0 = .closed }   // the multi is not woken again
        curl_multi_cleanup(multi)
        if let share { curl_share_cleanup(share) }
    }

    /// Nothing in flight: lets go of the multi and waits until it is handed back (a command or a
    /// job for the loop, or a caller's transfer left in flight); a caller may drive meanwhile.
    private func waitWhileIdle() {
        driver.withLock { $0 = .idle }
        if hasCommands.load(ordering: .sequentiallyConsistent) || executor.hasJobs { wake() }   // came in as it let go
        idleWake.wait()
        // Taken under the lock the hand-over wrote it under: what the caller did to the
        // loop-confined state happens before what the loop does next.
        driver.withLock { precondition($0 == .engine, "the multi was handed back to the loop") }
    }

    private func apply(_ command: Command) {
        switch command {
        case .add(let transfer):
            if let cancellation = transfer.shared.withLock({ $0.cancellation }) {
                transfer.finish(.failure(cancellation))
                return
            }
            transfer.loop.deadline = elapsed() + transfer.request.limits.timeToFirstByte
            // The share is attached here, on the loop thread that owns it (attaching counts its
            // users, unlocked): a handle made after shutdown never holds it, so cleanup frees it.
            if let share { _ = ccurl_setopt_share(transfer.handle, share) }
            guard curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
                transfer.finish(.failure(HTTPError(.internal, code: .curlAdd,
                                                   "libcurl refused the transfer for \(transfer.redactedURL).")))
                return
            }
            active[transfer.handle] = transfer
        case .cancel(let transfer):
            guard active[transfer.handle] != nil,
                  let cancellation = transfer.shared.withLock({ $0.cancellation }) else { return }
            remove(transfer, result: .failure(cancellation))
        case .unpause(let transfer):
            guard active[transfer.handle] != nil else { return }
            transfer.shared.withLock { state in
                state.isPaused = false
                state.isUnpauseQueued = false
            }
            // May synchronously re-enter the body callback; no lock is held here.
            _ = curl_easy_pause(transfer.handle, Int32(CURLPAUSE_CONT))
        }
    }

    private func drainCompleted() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let transfer = active[easy] else { continue }
            let code = message.pointee.data.result   // read before removal frees the message
            remove(transfer, result: outcome(of: transfer, code: code))
        }
    }

    private func outcome(of transfer: CurlTransfer, code: CURLcode) -> Result<Void, HTTPError> {
        if transfer.loop.completedEarly { return .success(()) }
        if let failure = transfer.loop.failure { return .failure(failure) }
        if let cancellation = transfer.shared.withLock({ $0.cancellation }) { return .failure(cancellation) }
        if code == CURLE_OK {
            if let remaining = transfer.loop.deliverRemaining, remaining > 0 {
                return .failure(HTTPError(.connectionLost, code: .rangeShort,
                                          "\(transfer.redactedURL) ended \(remaining) bytes before the requested range did."))
            }
            return .success(())
        }
        if code == CURLE_WRITE_ERROR, transfer.shared.withLock({ $0.isConsumerGone }) {
            return .failure(HTTPError(.cancelled, code: .consumerGone,
                                      "The body of \(transfer.redactedURL) was abandoned by its reader."))
        }
        var pretransfer = 0
        _ = ccurl_getinfo_off(transfer.handle, CURLINFO_PRETRANSFER_TIME_T, &pretransfer)
        var osErrno = 0
        _ = ccurl_getinfo_long(transfer.handle, CURLINFO_OS_ERRNO, &osErrno)
        return .failure(CurlErrorMapping.error(for: .init(
            code: code, detail: transfer.curlErrorDetail, osErrno: osErrno, connected: pretransfer > 0,
            headReceived: transfer.loop.isHeadDelivered, maximumBodyBytes: transfer.request.limits.maximumBodyBytes,
            redactedURL: transfer.redactedURL)))
    }

    private func remove(_ transfer: CurlTransfer, result: Result<Void, HTTPError>) {
        _ = curl_multi_remove_handle(multi, transfer.handle)
        // Detach from the share now: a transfer its consumer still holds at shutdown would
        // otherwise keep the share "in use", and curl_share_cleanup would leave it allocated.
        if share != nil { _ = ccurl_setopt_share(transfer.handle, nil) }
        active[transfer.handle] = nil
        transfer.finish(result)
    }

    /// Fails transfers whose head is overdue; returns how long the loop may sleep, in ms.
    private func expireDeadlines() -> Int {
        let now = elapsed()
        var wait = Duration.seconds(1)
        for (_, transfer) in active where !transfer.loop.isHeadDelivered {
            if transfer.loop.deadline <= now {
                let limit = transfer.request.limits.timeToFirstByte
                remove(transfer, result: .failure(HTTPError(
                    .timeout, code: .firstByteTimeout,
                    "\(transfer.redactedURL) sent no response head within \(limit).")))
            } else {
                wait = min(wait, transfer.loop.deadline - now)
            }
        }
        return max(1, CurlTransfer.milliseconds(wait))
    }

    private static func shutdownError(_ transfer: CurlTransfer) -> HTTPError {
        HTTPError(.cancelled, code: .transportShutDown,
                  "The HTTP transport shut down before \(transfer.redactedURL) finished.")
    }
}
