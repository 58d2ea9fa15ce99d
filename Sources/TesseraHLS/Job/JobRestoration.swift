/// What an output kept from an interrupted run, as its checkpoint vouched for it.
package struct JobRestoration: Sendable, Equatable {
    /// Resources kept (the transfer goes on from the next).
    package var resources: Int
    /// Bytes of output they are.
    package var bytes: UInt64
    /// Network bytes they stood for (as far as known), counted as fetched.
    package var fetchedBytes: UInt64

    package init(resources: Int, bytes: UInt64, fetchedBytes: UInt64) {
        self.resources = resources
        self.bytes = bytes
        self.fetchedBytes = fetchedBytes
    }

    /// Nothing kept.
    package static let none = JobRestoration(resources: 0, bytes: 0, fetchedBytes: 0)
}
