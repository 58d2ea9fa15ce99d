import Testing
import TesseraLive
import TesseraPlaylist

@Suite("Reload scheduler: blocking, delta, poll, and the recoveries")
struct ReloadSchedulerTests {
    static func playlist(_ control: String?, endList: Bool = false) throws -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n"
        if let control { text += "#EXT-X-SERVER-CONTROL:\(control)\n" }
        text += "#EXT-X-MEDIA-SEQUENCE:10\n#EXTINF:4.0,\na.ts\n#EXTINF:3.0,\nb.ts\n" + (endList ? "#EXT-X-ENDLIST\n" : "")
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure("a media playlist") }
        return media
    }

    @Test("a blocking server: ask for the next segment at once, with the blocking timeout")
    func blocking() throws {
        var scheduler = ReloadScheduler()
        let plan = scheduler.next(after: try Self.playlist("CAN-BLOCK-RELOAD=YES"), changed: true, age: .zero, sinceLoadStart: .zero)
        #expect(plan == ReloadScheduler.Plan(mode: .blocking, directives: DeliveryDirectives(msn: 12, part: nil, skip: nil), wait: .zero, timeout: .seconds(13)))
    }

    @Test("deltas while recent, with or without blocking; one whole reload after a refused merge")
    func delta() throws {
        var scheduler = ReloadScheduler()
        let both = try Self.playlist("CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24.0")
        #expect(scheduler.next(after: both, changed: true, age: .seconds(1), sinceLoadStart: .zero)?.mode == .delta)
        scheduler.deltaRefused()
        let whole = scheduler.next(after: both, changed: true, age: .seconds(1), sinceLoadStart: .zero)
        #expect(whole?.mode == .blocking && whole?.directives?.skip == nil)
        #expect(scheduler.next(after: both, changed: true, age: .seconds(1), sinceLoadStart: .zero)?.mode == .delta, "only once")
        let skipOnly = try Self.playlist("CAN-SKIP-UNTIL=24.0")
        let plan = scheduler.next(after: skipOnly, changed: true, age: .seconds(1), sinceLoadStart: .seconds(1))
        #expect(plan == ReloadScheduler.Plan(mode: .delta, directives: DeliveryDirectives(msn: nil, part: nil, skip: .yes), wait: .seconds(2), timeout: nil),
                "a delta without blocking waits like a poll")
    }

    @Test("without server control: §6.3.4 polling, counted from the load's start")
    func poll() throws {
        var scheduler = ReloadScheduler()
        let plain = try Self.playlist(nil)
        #expect(scheduler.next(after: plain, changed: true, age: .zero, sinceLoadStart: .milliseconds(500))
                == ReloadScheduler.Plan(mode: .poll, directives: nil, wait: .milliseconds(2500), timeout: nil), "the last segment's 3 s")
        #expect(scheduler.next(after: plain, changed: false, age: .zero, sinceLoadStart: .zero)?.wait == .seconds(2), "half the target")
        #expect(scheduler.next(after: plain, changed: false, age: .zero, sinceLoadStart: .seconds(5))?.wait == .zero)
    }

    @Test("a refused blocking request is followed by one plain reload; nothing after ENDLIST")
    func recovery() throws {
        var scheduler = ReloadScheduler()
        let blocking = try Self.playlist("CAN-BLOCK-RELOAD=YES")
        scheduler.blockingRefused()
        #expect(scheduler.next(after: blocking, changed: false, age: .zero, sinceLoadStart: .zero)
                == ReloadScheduler.Plan(mode: .full, directives: nil, wait: .zero, timeout: nil))
        #expect(scheduler.next(after: blocking, changed: true, age: .zero, sinceLoadStart: .zero)?.mode == .blocking)
        #expect(scheduler.next(after: try Self.playlist("CAN-BLOCK-RELOAD=YES", endList: true), changed: true, age: .zero, sinceLoadStart: .zero) == nil)
    }

    @Test("a server that keeps refusing blocking requests gets its plain reloads half a target duration apart")
    func repeatedRefusals() throws {
        var scheduler = ReloadScheduler()
        let blocking = try Self.playlist("CAN-BLOCK-RELOAD=YES")
        scheduler.blockingRefused()
        #expect(scheduler.next(after: blocking, changed: false, age: .zero, sinceLoadStart: .zero)?.wait == .zero)
        scheduler.blockingRefused()
        #expect(scheduler.next(after: blocking, changed: false, age: .zero, sinceLoadStart: .zero)?.wait == .seconds(2))
        scheduler.resetRefusals()
        scheduler.blockingRefused()
        #expect(scheduler.next(after: blocking, changed: false, age: .zero, sinceLoadStart: .zero)?.wait == .zero, "an answered one starts over")
    }
}
