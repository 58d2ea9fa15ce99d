/// An input iterator that can also say, without waiting, what comes next: a finite list always
/// can, a live recorder's input can while it holds fetches already planned. The ordered transfer
/// takes elements this way when it can — no task hop per element, so a window of `parallelism`
/// stays full — and awaits `next()` in a child task only when the input would wait.
package protocol ImmediateIterator<Element>: AsyncIteratorProtocol where Failure == HLSError {
    /// The next element, the end, or that it would have to wait (nothing is consumed then).
    /// - Throws: the input's failure.
    mutating func nextImmediately() throws(HLSError) -> ImmediatePull<Element>
}
