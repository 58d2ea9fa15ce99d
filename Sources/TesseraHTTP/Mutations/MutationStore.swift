/// Where a `MutationQueue` keeps mutations that are not done yet, so they survive restarts:
/// `InMemoryMutationStore`, `FileMutationStore`, or your own.
public protocol MutationStore: Sendable {
    /// Every stored mutation, oldest first.
    func load() throws(HTTPError) -> [Mutation]
    /// Adds `mutation`, replacing a stored one with the same `idempotencyKey`.
    func save(_ mutation: Mutation) throws(HTTPError)
    /// Removes the mutation with this `idempotencyKey`.
    func remove(_ id: String) throws(HTTPError)
}
