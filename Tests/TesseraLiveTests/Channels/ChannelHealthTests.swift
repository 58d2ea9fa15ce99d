import Foundation
import Testing
import TesseraLive

@Suite("ChannelHealth: the last hour, minute by minute")
struct ChannelHealthTests {
    @Test("each minute keeps the worst mark; the strip moves on, minutes passed blank, older marks dropped")
    func strip() throws {
        let start = 1_800_000_000.0 - 1_800_000_000.0.truncatingRemainder(dividingBy: 60)
        var health = ChannelHealth(now: start)
        #expect(health.strip.count == 60 && health.strip.allSatisfy { $0 == nil })
        health.note(.ok, at: start + 1)
        health.note(.gap, at: start + 2)
        health.note(.ok, at: start + 3)
        #expect(health.strip.last == .gap)
        health.note(.outage, at: start + 125)
        #expect(Array(health.strip.suffix(3)) == [.gap, nil, .outage])
        health.note(.failed, at: start - 3_600)   // older than the strip
        #expect(health.strip.compactMap { $0 } == [.gap, .outage])
        health.advance(toTime: start + 125 + 59 * 60)
        #expect(health.strip.first == .outage && health.strip.dropFirst().allSatisfy { $0 == nil })
        health.advance(toTime: start + 10 * 3_600)
        #expect(health.strip.allSatisfy { $0 == nil })
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(health)) as? [String: Any]
        #expect((json?["strip"] as? [Any])?.count == 60)
        #expect(json?["lastMinute"] as? Int == Int(start) + 10 * 3_600)
    }

    @Test("a channel's backoff: 1 s doubling to the cap; the stop policy has none")
    func backoff() {
        let policy = ChannelFailurePolicy.retry(initial: .seconds(1), maximum: .seconds(60))
        #expect((1...8).map { policy.wait(after: $0) } == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        #expect(ChannelFailurePolicy.stop.wait(after: 1) == nil)
    }
}
