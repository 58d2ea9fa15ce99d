/// Which statuses a request accepts; any other is a `status` error.
public struct AcceptableStatus: Sendable {
    private let accepts: @Sendable (Int) -> Bool

    /// Accepts what `accepts` says.
    public init(_ accepts: @escaping @Sendable (Int) -> Bool) { self.accepts = accepts }

    /// Whether `status` is accepted.
    public func contains(_ status: Int) -> Bool { accepts(status) }

    /// 200–299 (the default).
    public static let successful = AcceptableStatus { (200..<300).contains($0) }
    /// Every status: the caller inspects it.
    public static let any = AcceptableStatus { _ in true }

    /// Statuses in `range`.
    public static func range(_ range: Range<Int>) -> AcceptableStatus { AcceptableStatus { range.contains($0) } }

    /// Exactly these statuses.
    public static func only(_ statuses: Set<Int>) -> AcceptableStatus { AcceptableStatus { statuses.contains($0) } }
}
