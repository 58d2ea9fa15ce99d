import TesseraSupport
/// A `MutationStore` that forgets everything when the process ends.
public final class InMemoryMutationStore: MutationStore {
    private let mutations = Lock<[Mutation]>([])

    /// An empty store.
    public init() {}

    public func load() throws(HTTPError) -> [Mutation] { mutations.withLock { $0 } }

    public func save(_ mutation: Mutation) throws(HTTPError) {
        mutations.withLock { list in
            if let index = list.firstIndex(where: { $0.idempotencyKey == mutation.idempotencyKey }) {
                list[index] = mutation
            } else {
                list.append(mutation)
            }
        }
    }

    public func remove(_ id: String) throws(HTTPError) {
        mutations.withLock { $0.removeAll { $0.idempotencyKey == id } }
    }
}
