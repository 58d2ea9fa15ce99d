/// The resources of a plan a run still has to fetch — those a restored checkpoint does not
/// vouch for — read in plan order from the plan's own list, without a copy of it (the copy was as
/// large as the plan's resources, 76 MB at 500,000 segments, for the whole transfer).
struct PendingResources: Sequence, Sendable {
    let resources: [PlannedResource]
    let done: Set<ResourceIdentity>

    struct Iterator: IteratorProtocol {
        fileprivate let resources: [PlannedResource]
        fileprivate let done: Set<ResourceIdentity>
        fileprivate var index = 0

        mutating func next() -> PlannedResource? {
            while index < resources.count {
                defer { index += 1 }
                if done.isEmpty || !done.contains(resources[index].identity) { return resources[index] }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(resources: resources, done: done) }
}
