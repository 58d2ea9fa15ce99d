import TesseraSupport

/// A channel's elements as an input of the transfer engine (whose inputs fail with `HLSError`;
/// a channel never fails).
struct ChannelInput<Element: Sendable>: AsyncSequence, Sendable {
    typealias Failure = HLSError
    let channel: BoundedChannel<Element>

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = HLSError
        var base: BoundedChannel<Element>.AsyncIterator
        mutating func next() async throws(HLSError) -> Element? { await base.next() }
        mutating func next(isolation actor: isolated (any Actor)?) async throws(HLSError) -> Element? { await base.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: channel.makeAsyncIterator()) }
}
