import Foundation
import Testing
import TesseraLive
import TesseraPlaylist

@Suite("PublicationPhase: polls timed to land just after the next segment is listed")
struct PublicationPhaseTests {
    /// An origin listing segment m (of `duration` s) at `anchor + (m + 1) × duration + jitter(m)`,
    /// tuned in to `tuneIn` seconds after its first segment was listed,
    /// a window of six; polled by the reloader's rule (§6.3.4's shortest wait, then the phase's
    /// instant); each segment's lateness (its load's start less its listing), and whether every
    /// reload kept the shortest wait. `delay(n)`: how long the n-th load takes to be answered.
    static func follow(anchor: Double, tuneIn: Double, duration: Double = 2, target: Int = 2, jitter: @escaping (UInt64) -> Double = { _ in 0 },
                       segments: UInt64 = 150, align: Bool = true, delay: (Int) -> Double = { _ in 0.005 }) throws -> (lateness: [Double], compliant: Bool) {
        func listed(_ m: UInt64) -> Double { anchor + Double(m + 1) * duration + jitter(m) }
        func newest(at t: Double) -> UInt64? {
            var m: UInt64? = nil
            while listed(m.map { $0 + 1 } ?? 0) <= t { m = m.map { $0 + 1 } ?? 0 }
            return m
        }
        func playlist(_ m: UInt64) throws -> MediaPlaylist {
            let first = m >= 5 ? m - 5 : 0
            var text = "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
            for _ in first...m { text += "#EXTINF:\(duration),\ns.ts\n" }
            guard case .media(let playlist) = try PlaylistParser().parse(Array(text.utf8)).playlist else { throw CocoaError(.fileReadCorruptFile) }
            return playlist
        }
        var phase = PublicationPhase()
        var lateness: [Double] = []
        var compliant = true
        var t = anchor + duration + tuneIn   // tuned in `tuneIn` after the first segment was listed
        var seen: UInt64? = nil
        var loads = 0
        while (seen ?? 0) < segments {
            let answered = t + delay(loads)
            loads += 1
            guard let m = newest(at: t) else { Issue.record("nothing listed at \(t)"); break }
            let changed = seen.map { m > $0 } ?? true
            if let previous = seen, m > previous {
                for k in (previous + 1)...m { lateness.append(t - listed(k)) }
            }
            seen = m
            phase.observe(try playlist(m), start: .milliseconds(Int64(t * 1000)), answered: .milliseconds(Int64(answered * 1000)))
            let earliest = t + (changed ? duration : Double(target) / 2)
            let next = align ? phase.nextReload(earliest: .milliseconds(Int64((earliest * 1000).rounded(.up)))) : .milliseconds(Int64(earliest * 1000))
            let nextSeconds = Double(next.components.seconds) + Double(next.components.attoseconds) / 1e18
            compliant = compliant && nextSeconds >= earliest - 0.001
            t = nextSeconds
        }
        return (lateness, compliant)
    }

    @Test("tuned in at any point of a segment's span: after a few probes segments are seen within 0.35 s of their listing (p95 of all); never sooner than §6.3.4 allows",
          arguments: [0.01, 0.4, 0.9, 1.3, 1.7, 1.99])
    func locks(tuneIn: Double) throws {
        let (lateness, compliant) = try Self.follow(anchor: 100.123, tuneIn: tuneIn)
        #expect(compliant)
        let sorted = lateness.sorted()
        #expect(sorted.first! >= 0 && sorted[sorted.count * 95 / 100] <= 0.35, "\(lateness.map { ($0 * 1000).rounded() })")
        #expect(lateness.dropFirst(10).filter { $0 > 0.35 }.count <= 3, "\(lateness.map { ($0 * 1000).rounded() })")
        // The shortest wait alone keeps the tune-in's lateness for every segment.
        let unaligned = try Self.follow(anchor: 100.123, tuneIn: tuneIn, align: false).lateness
        #expect(abs(unaligned.dropFirst(10).first! - tuneIn) < 0.01)
    }

    @Test("an encoder's jitter (±80 ms) and a segment shorter than the target duration (5.005 of 6): still within half a second, still compliant")
    func jitter() throws {
        let jittered = try Self.follow(anchor: 50.7, tuneIn: 1.2, jitter: { m in Double((m * 7919) % 17) / 100 - 0.08 })
        #expect(jittered.compliant)
        let settled = jittered.lateness.dropFirst(12).sorted()
        #expect(settled[settled.count * 95 / 100] <= 0.5, "\(jittered.lateness.map { ($0 * 1000).rounded() })")
        let apple = try Self.follow(anchor: 31.3, tuneIn: 3.1, duration: 5.005, target: 6, segments: 80)
        #expect(apple.compliant)
        let late = apple.lateness.sorted()
        #expect(late[late.count * 90 / 100] <= 0.4, "\(apple.lateness.map { ($0 * 1000).rounded() })")
    }

    @Test("answers slowed at the start (0.6 s, a host busy tuning in to every channel) lock a wide model; once drift widens it, it is probed again: after 4,000 s segments are still seen within 0.35 s")
    func probedAgain() throws {
        let (lateness, compliant) = try Self.follow(anchor: 10.37, tuneIn: 0.8, segments: 2000, delay: { $0 < 12 ? 0.6 : 0.005 })
        #expect(compliant)
        let early = lateness.prefix(100).sorted(), late = lateness.suffix(200).sorted()
        #expect(early[early.count / 2] >= 0.4, "the slow answers locked a wide model at first: \(early.map { ($0 * 1000).rounded() })")
        #expect(late[late.count * 95 / 100] <= 0.35, "\(late.map { ($0 * 1000).rounded() })")
    }

    @Test("a playlist whose numbering goes back starts the model over; nothing seen yet keeps the shortest wait")
    func restarts() throws {
        var phase = PublicationPhase()
        #expect(phase.nextReload(earliest: .seconds(7)) == .seconds(7))
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:100\n#EXTINF:2,\na.ts\n"
        guard case .media(let playlist) = try PlaylistParser().parse(Array(text.utf8)).playlist else { return }
        phase.observe(playlist, start: .seconds(10), answered: .milliseconds(10_010))
        let back = text.replacingOccurrences(of: "SEQUENCE:100", with: "SEQUENCE:3")
        guard case .media(let restarted) = try PlaylistParser().parse(Array(back.utf8)).playlist else { return }
        var fresh = PublicationPhase()
        fresh.observe(restarted, start: .seconds(12), answered: .milliseconds(12_010))
        phase.observe(restarted, start: .seconds(12), answered: .milliseconds(12_010))
        #expect(phase == fresh)
    }
}
