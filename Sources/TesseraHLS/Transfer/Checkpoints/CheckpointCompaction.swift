/// When a checkpoint log that still lists evicted entries is rewritten without them: once they
/// outnumber the kept ones (and are at least `least`), so the log stays within about twice what
/// it vouches for and an eviction rewrites it only now and then, not every time. The log's owner
/// must restore only the entries it still keeps (what its eviction record does not cover).
package struct CheckpointCompaction: Sendable {
    /// Evicted entries the log may still list.
    private var evicted = 0
    /// The fewest evicted entries that make a rewrite due.
    private let least: Int

    /// A schedule that rewrites at `least` evicted entries at the fewest.
    package init(least: Int = 64) {
        self.least = least
    }

    /// Counts `count` entries evicted, `kept` left; true when the log is due for a rewrite (the
    /// count then starts again).
    package mutating func evicted(_ count: Int, kept: Int) -> Bool {
        evicted += count
        guard evicted >= max(kept, least) else { return false }
        evicted = 0
        return true
    }

    /// The log was rewritten as what is kept.
    package mutating func rewritten() {
        evicted = 0
    }
}
