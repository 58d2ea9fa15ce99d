import TesseraPlaylist
import TesseraSupport

/// The health of a live stream, from the snapshots a reloader obtains (pure, on the caller's
/// clock): edge regression, stagnation of segments and parts (also on a timer, `tick`, when no
/// snapshot comes), declared hold-backs, repeated delta recovery, pathway instability, HTTP
/// freshness and a window too short to survive a failed reload. Each observation returns the
/// findings it raises.
public struct LiveHealth: Sendable {
    /// The HTTP facts of a playlist response that bear on freshness.
    public struct Freshness: Sendable, Equatable {
        /// The `Age` header, seconds.
        public let age: Double?
        /// The `Cache-Control` max-age, seconds.
        public let maxAge: Double?

        /// Freshness facts as given.
        public init(age: Double?, maxAge: Double?) {
            self.age = age
            self.maxAge = maxAge
        }
    }

    private var lastEdge: (msn: UInt64, parts: Int)?
    private var lastNewSegment: Duration?
    private var lastNewPart: Duration?
    /// What the last playlist says of its cadence: its target duration and part target, and
    /// whether it has ended.
    private var cadence: (target: Double, partTarget: Double?, ended: Bool)?
    /// When stagnation of segments, and of parts, was last reported.
    private var stagnationReported: (segments: Duration?, parts: Duration?) = (nil, nil)
    private var checkedDeclarations = false
    private var deltaRefusals = 0
    private var switches: [Duration] = []

    /// An analyzer for a stream just tuned in to.
    public init() {}

    /// A snapshot of `playlist` obtained `at` (blocking requests are exempt from the max-age check).
    public mutating func observe(_ playlist: MediaPlaylist, at now: Duration, freshness: Freshness? = nil, blocking: Bool = false) -> [LiveFinding] {
        var found: [LiveFinding] = []
        let target = Double(playlist.targetDuration ?? 6)
        let edge = (msn: playlist.segments.last?.mediaSequence ?? playlist.mediaSequence, parts: playlist.pendingParts.count)
        if let last = lastEdge {
            if edge.msn < last.msn || (edge.msn == last.msn && edge.parts < last.parts) {
                found.append(LiveFinding(.edgeRegression, .error, "The live edge went back from segment \(last.msn) (part \(last.parts)) to \(edge.msn) (part \(edge.parts)).", at: now))
            }
            if edge.msn > last.msn { lastNewSegment = now }
            if edge.msn > last.msn || edge.parts > last.parts { lastNewPart = now }
        } else {
            lastNewSegment = now
            lastNewPart = now
        }
        lastEdge = edge
        cadence = (target, playlist.partInformation?.partTarget, playlist.hasEndList)
        if !playlist.hasEndList {
            found += stagnation(at: now, wait: .zero)
            let window = playlist.segments.reduce(0.0) { $0 + $1.duration }
            if window < 3 * target {
                found.append(LiveFinding(.windowRisk, .warning, "The window holds \(Self.format(.milliseconds(Int64(window * 1000)))) of media, under three target durations: one failed reload can lose segments.", at: now))
            }
        }
        if !checkedDeclarations, let control = playlist.serverControl {
            checkedDeclarations = true
            if let holdBack = control.holdBack, holdBack < 3 * target {
                found.append(LiveFinding(.holdBack, .warning, "HOLD-BACK \(holdBack) s is under three target durations (\(3 * target) s, §4.4.3.8).", at: now))
            }
            if let partHoldBack = control.partHoldBack, let part = playlist.partInformation?.partTarget, partHoldBack < 2 * part {
                found.append(LiveFinding(.holdBack, .warning, "PART-HOLD-BACK \(partHoldBack) s is under two part targets (\(2 * part) s, §4.4.3.8).", at: now))
            }
        }
        if let freshness {
            if let age = freshness.age, age > target {
                found.append(LiveFinding(.staleResponse, .warning, "The playlist came from a cache \(Int(age)) s old, more than one target duration.", at: now))
            } else if !blocking, let maxAge = freshness.maxAge, maxAge > target / 2 {
                found.append(LiveFinding(.staleResponse, .warning, "The playlist may be cached \(Int(maxAge)) s (max-age), more than half a target duration.", at: now))
            }
        }
        return found
    }

    /// The stagnation findings due `at` though no snapshot came (a blocking request held by a
    /// stalled server answers nothing): no new segment for over 1.5 target durations, no new
    /// part for over a part target, as `observe` finds them — each at most once a target
    /// duration (a part target for parts), so a timer may call this often.
    public mutating func tick(at now: Duration) -> [LiveFinding] {
        guard let cadence, !cadence.ended else { return [] }
        return stagnation(at: now, wait: .milliseconds(Int64(cadence.target * 1000)))
    }

    /// Stagnation of segments and parts `at`, each kind not reported again within `wait` of its
    /// last report.
    private mutating func stagnation(at now: Duration, wait: Duration) -> [LiveFinding] {
        guard let cadence else { return [] }
        var found: [LiveFinding] = []
        if let since = lastNewSegment, Self.seconds(now - since) > 1.5 * cadence.target,
           stagnationReported.segments.map({ now - $0 >= wait }) ?? true {
            stagnationReported.segments = now
            found.append(LiveFinding(.stagnantSegments, .warning, "No new segment for \(Self.format(now - since)) (target duration \(Int(cadence.target)) s).", at: now))
        }
        if let part = cadence.partTarget, let since = lastNewPart, Self.seconds(now - since) > part,
           stagnationReported.parts.map({ now - $0 >= min(wait, .milliseconds(Int64(part * 1000))) }) ?? true {
            stagnationReported.parts = now
            found.append(LiveFinding(.stagnantParts, .warning, "No new part for \(Self.format(now - since)) (part target \(part) s).", at: now))
        }
        return found
    }

    /// A delta update could not be merged `at`; a merged one clears the count.
    public mutating func deltaRefused(at now: Duration) -> [LiveFinding] {
        deltaRefusals += 1
        guard deltaRefusals >= 2 else { return [] }
        return [LiveFinding(.deltaRecovery, .warning, "\(deltaRefusals) delta updates in a row could not be merged: each cost a whole reload.", at: now)]
    }

    /// A delta update was merged.
    public mutating func deltaMerged() { deltaRefusals = 0 }

    /// The stream moved to another pathway `at`, for a playlist of `targetDuration`.
    public mutating func pathwaySwitched(at now: Duration, targetDuration: Duration) -> [LiveFinding] {
        switches = switches.filter { now - $0 <= targetDuration * 10 } + [now]
        guard switches.count >= 3 else { return [] }
        return [LiveFinding(.pathwayInstability, .warning, "\(switches.count) pathway switches within ten target durations.", at: now)]
    }

    private static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }

    private static func format(_ duration: Duration) -> String {
        let value = seconds(duration)
        return value == value.rounded() ? "\(Int(value)) s" : "\(Double(Int(value * 10)) / 10) s"
    }
}
