/// What becomes a thrown error.
public enum DiagnosticPolicy: Hashable, Sendable {
    /// Report everything; throw only for documents that cannot be read at all.
    case lenient
    /// Any error-severity diagnostic throws.
    case strict
    /// These IDs throw, whatever their severity; the rest is reported.
    case escalate(Set<DiagnosticID>)

    /// True when `diagnostic` must be thrown under this policy.
    public func isFatal(_ diagnostic: Diagnostic) -> Bool {
        switch self {
        case .lenient: false
        case .strict: diagnostic.severity == .error
        case .escalate(let ids): ids.contains(diagnostic.id)
        }
    }
}
