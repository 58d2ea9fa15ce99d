/// A channel's health over the last hour, minute by minute (`ChannelStatus.health`): for each
/// minute the worst that happened in it — media recorded, a restart of the source, a gap, an
/// outage, a failure — or nothing. Sixty marks at most, whatever the channel's age.
public struct ChannelHealth: Sendable, Equatable, Encodable {
    /// What a minute saw, from best to worst.
    public enum Mark: Int, Sendable, Comparable, Encodable {
        /// Media was recorded.
        case ok
        /// The source restarted (recorded on behind a discontinuity).
        case restart
        /// A gap was declared.
        case gap
        /// The origin failed or listed no new media (an outage, ridden out or not).
        case outage
        /// A recording of the channel failed.
        case failed

        public static func < (lhs: Mark, rhs: Mark) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Its name in JSON.
        public var name: String { ["ok", "restart", "gap", "outage", "failed"][rawValue] }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name)
        }
    }

    /// Minutes kept.
    public static let minutes = 60

    private var marks = [Mark?](repeating: nil, count: minutes)
    /// The newest minute (since 1970).
    public private(set) var lastMinute: Int

    /// A strip whose newest minute is the one holding `time` (seconds since 1970).
    public init(now time: Double) {
        lastMinute = Int((time / 60).rounded(.down))
    }

    /// Notes `mark` at `time` (seconds since 1970); one older than the strip is dropped.
    public mutating func note(_ mark: Mark, at time: Double) {
        let minute = Int((time / 60).rounded(.down))
        advance(to: minute)
        guard minute > lastMinute - Self.minutes else { return }
        let index = minute.modulo(Self.minutes)
        marks[index] = max(marks[index] ?? mark, mark)
    }

    /// Moves the strip on to the minute holding `time`, the minutes passed left blank.
    public mutating func advance(toTime time: Double) { advance(to: Int((time / 60).rounded(.down))) }

    private mutating func advance(to minute: Int) {
        guard minute > lastMinute else { return }
        for passed in (lastMinute + 1)...min(minute, lastMinute + Self.minutes) { marks[passed.modulo(Self.minutes)] = nil }
        lastMinute = minute
    }

    /// The marks, oldest minute first (`minutes` of them, the last `lastMinute`'s).
    public var strip: [Mark?] {
        (lastMinute - Self.minutes + 1...lastMinute).map { marks[$0.modulo(Self.minutes)] }
    }

    private enum Keys: String, CodingKey { case lastMinute, strip }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(lastMinute * 60, forKey: .lastMinute)
        try container.encode(strip, forKey: .strip)
    }
}

private extension Int {
    /// The remainder in 0..<n, for negatives too.
    func modulo(_ n: Int) -> Int { ((self % n) + n) % n }
}
