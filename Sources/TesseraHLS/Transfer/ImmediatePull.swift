/// What an `ImmediateIterator` has without waiting.
package enum ImmediatePull<Element> {
    /// The next element.
    case element(Element)
    /// The input has ended.
    case end
    /// The next element is not there yet: await `next()`.
    case wouldWait
}

extension ImmediatePull: Sendable where Element: Sendable {}
