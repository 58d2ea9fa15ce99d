/// The response value of an endpoint that expects no body worth reading (`204`, `202`, …). The
/// body, if any, is drained within the collection limit so the connection stays reusable.
public struct HTTPNoContent: Sendable, Equatable, Decodable {
    /// The value.
    public init() {}
}
