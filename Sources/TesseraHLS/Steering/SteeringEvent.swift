/// What Content Steering did, for events and logs: pathway IDs and redacted URLs only.
public enum SteeringEvent: Hashable, Sendable, CustomStringConvertible {
    /// A manifest was applied: its priority, TTL and the clones it added.
    case applied(priority: [String], ttl: Double, clonesAdded: [String])
    /// A manifest was refused; the previous state stays.
    case rejected(reason: String)
    /// A manifest's RELOAD-URI was refused (another scheme, an HTTPS downgrade): the next
    /// request goes where the last one went.
    case reloadRefused(reason: String)
    /// The current pathway changed, and why.
    case switched(from: String, to: String, reason: String)
    /// A pathway failed and is penalised until `until` (seconds on the steering clock).
    case penalized(pathway: String, until: Double)
    /// A penalised pathway's penalty expired.
    case readmitted(pathway: String)
    /// The manifest server answered 429; the next request waits `wait` seconds.
    case throttled(wait: Double)
    /// A manifest request failed (status or transport); the next one is after the TTL.
    case failed(reason: String, retryIn: Double)
    /// The server answered 410: steering is over for this session; the last priority stays.
    case ended
    /// No pathway is left that is not penalised and has variants; the current one stays.
    case exhausted(current: String)

    public var description: String {
        switch self {
        case .applied(let priority, let ttl, let clones):
            "steering: priority \(priority.joined(separator: ", ")), TTL \(ttl) s" + (clones.isEmpty ? "" : ", cloned \(clones.joined(separator: ", "))")
        case .rejected(let reason): "steering: manifest refused: \(reason)"
        case .reloadRefused(let reason): "steering: RELOAD-URI refused, the manifest URI stays: \(reason)"
        case .switched(let from, let to, let reason): "steering: pathway \(from) → \(to): \(reason)"
        case .penalized(let pathway, let until): "steering: pathway \(pathway) penalised until t=\(until) s"
        case .readmitted(let pathway): "steering: pathway \(pathway) readmitted"
        case .throttled(let wait): "steering: throttled (429), next manifest request in \(wait) s"
        case .failed(let reason, let retry): "steering: manifest request failed (\(reason)), retry in \(retry) s"
        case .ended: "steering: the server ended steering (410); the last priority stays"
        case .exhausted(let current): "steering: no other pathway is available; staying on \(current)"
        }
    }
}
