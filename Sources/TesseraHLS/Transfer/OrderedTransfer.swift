/// Bounded parallel work over an input that may be finite or open-ended, delivered strictly in
/// order: at most `parallelism` items, and about `maximumBytes` of them, are in flight or
/// waiting to be consumed, so memory stays bounded however far ahead the network runs and
/// however large the items; a slow item holds back only the window, never the order. The input
/// is pulled only when there is room, and while it waits (a live playlist that has not grown
/// yet) finished items are still consumed.
package enum OrderedTransfer {
    /// Runs `work` for each element of `input` and hands each result to `consume` in input
    /// order. An element's size is `size(element)` when known up front, else the mean of the
    /// finished ones of its `sizeClass` (`measure` gives a finished result's real size; a video
    /// segment is not estimated from the audio segments beside it), or of the heaviest class
    /// while none of its own has finished and none is out — before any has finished, an element
    /// of unknown size runs alone, and the first of a class runs without others of its class;
    /// one element always runs even when it alone exceeds `maximumBytes`. The first
    /// failure (of the input, the work or `consume`) cancels the rest and is thrown.
    package static func run<Input: AsyncSequence, T: Sendable>(
        _ input: Input, parallelism: Int, maximumBytes: UInt64 = .max,
        size: (Input.Element) -> UInt64? = { _ in nil },
        measure: ((T) -> UInt64)? = nil,
        sizeClass: (Input.Element) -> AnyHashable = { _ in 0 },
        work: @escaping @Sendable (Input.Element) async throws(HLSError) -> T,
        consume: (consuming T) async throws(HLSError) -> Void
    ) async throws(HLSError) where Input.Element: Sendable, Input.Failure == HLSError {
        let source = InputPuller<Input.Element>(input.makeAsyncIterator())
        let failure = await withTaskGroup(of: Step<Input.Element, T>.self, returning: HLSError?.self) { group in
            var window = Window()
            var waiting: Input.Element?    // pulled, not started: waits for room
            var isPulling = false
            var inputEnded = false
            var next = 0
            var ready: [Int: T] = [:]
            var consumed = 0
            func startWhatFits() -> HLSError? {
                while true {
                    if waiting == nil, !isPulling, !inputEnded, window.count < max(1, parallelism), let now = source.pullNow() {
                        switch now {
                        case .success(.element(let element)): waiting = element
                        case .success(.end): inputEnded = true
                        case .success(.wouldWait): break
                        case .failure(let error): return error
                        }
                    }
                    guard let element = waiting, window.count < max(1, parallelism) else { break }
                    // An item of unknown size waits for the window to empty until one finishes.
                    let sized = sizeClass(element)
                    guard let cost = size(element) ?? window.estimate(of: sized) else { break }
                    guard window.count == 0 || window.held.addingReportingOverflow(cost).partialValue <= maximumBytes else { break }
                    let index = next
                    next += 1
                    window.start(index, cost: cost, of: sized)
                    waiting = nil
                    group.addTask {
                        do throws(HLSError) { return .done(index, .success(try await work(element))) } catch { return .done(index, .failure(error)) }
                    }
                }
                if waiting == nil, !isPulling, !inputEnded, window.count < max(1, parallelism) {
                    isPulling = true
                    group.addTask { await .pulled(source.pull()) }
                }
                return nil
            }
            // Takes a finished step; consumed, so a result in `ready` is its only reference (a
            // body consumed later can then give its memory back to the budget, and decrypt or
            // change in place).
            func record(_ step: consuming Step<Input.Element, T>) -> HLSError? {
                switch consume step {
                case .pulled(.success(let element)):
                    isPulling = false
                    if let element { waiting = element } else { inputEnded = true }
                case .pulled(.failure(let error)):
                    return error
                case .done(_, .failure(let error)):
                    return error
                case .done(let index, .success(let value)):
                    window.finish(index, actual: measure?(value))
                    ready[index] = value
                }
                return nil
            }
            if let error = startWhatFits() { return error }
            while let step = await group.next() {
                if let error = record(consume step) {
                    group.cancelAll()
                    return error
                }
                while let value = ready.removeValue(forKey: consumed) {
                    do throws(HLSError) { try await consume(consume value) } catch {
                        group.cancelAll()
                        return error
                    }
                    window.remove(consumed)
                    consumed += 1
                }
                if let error = startWhatFits() {
                    group.cancelAll()
                    return error
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// What a child task of the transfer ended with.
    private enum Step<Element: Sendable, T: Sendable>: Sendable {
        /// The next input element (nil at its end), or the input's failure.
        case pulled(Result<Element?, HLSError>)
        /// An item's work.
        case done(Int, Result<T, HLSError>)
    }

    /// The items started and not yet consumed, with their estimated bytes, and what the
    /// finished ones really weighed, by size class.
    private struct Window {
        private var items: [Int: (cost: UInt64, group: AnyHashable)] = [:]
        private var finished: [AnyHashable: (count: UInt64, bytes: UInt64)] = [:]
        var count: Int { items.count }
        var held: UInt64 { items.values.reduce(0) { $0 + $1.cost } }
        /// The mean size of the finished items of `group`. Before one of its own has finished:
        /// nil (wait) while one of its kind is out — it tells the size; else the mean of the class
        /// whose finished items weigh most, 0 when the window is empty, nil (wait) otherwise.
        func estimate(of group: AnyHashable) -> UInt64? {
            if let own = finished[group] { return own.bytes / own.count }
            if items.values.contains(where: { $0.group == group }) { return nil }
            return finished.values.map { $0.bytes / $0.count }.max() ?? (items.isEmpty ? 0 : nil)
        }

        mutating func start(_ index: Int, cost: UInt64, of group: AnyHashable) { items[index] = (cost, group) }
        mutating func finish(_ index: Int, actual: UInt64?) {
            guard let item = items[index] else { return }
            let weight = actual ?? item.cost
            items[index] = (weight, item.group)
            let before = finished[item.group] ?? (0, 0)
            finished[item.group] = (before.count + 1, before.bytes &+ weight)
        }
        mutating func remove(_ index: Int) { items[index] = nil }
    }
}

/// The input's iterator: taken from at once when it is an `ImmediateIterator` and has an
/// element ready, else pulled by one child task at a time. `@unchecked Sendable`: the transfer
/// takes or starts a pull only when none is outstanding and never touches the iterator
/// otherwise, so the iterator is never used by two tasks at once.
private final class InputPuller<Element: Sendable>: @unchecked Sendable {
    private let pullNext: () async -> Result<Element?, HLSError>
    private let takeNow: (() -> Result<ImmediatePull<Element>, HLSError>)?

    init<Iterator: AsyncIteratorProtocol>(_ iterator: Iterator) where Iterator.Element == Element, Iterator.Failure == HLSError {
        if let immediate = iterator as? any ImmediateIterator<Element> {
            var iterator = immediate    // one iterator, shared by both closures
            takeNow = {
                do throws(HLSError) { return .success(try iterator.nextImmediately()) } catch { return .failure(error) }
            }
            pullNext = {
                do throws(HLSError) { return .success(try await iterator.next(isolation: nil)) } catch { return .failure(error) }
            }
        } else {
            var iterator = iterator
            takeNow = nil
            pullNext = {
                do throws(HLSError) { return .success(try await iterator.next(isolation: nil)) } catch { return .failure(error) }
            }
        }
    }

    /// The next element without waiting, when the input can say; nil when it cannot.
    func pullNow() -> Result<ImmediatePull<Element>, HLSError>? { takeNow?() }

    func pull() async -> Result<Element?, HLSError> { await pullNext() }
}

/// A finite list of elements as the transfer's input.
package struct ListInput<Elements: Sequence>: AsyncSequence, Sendable where Elements: Sendable, Elements.Element: Sendable {
    package typealias Element = Elements.Element
    package typealias Failure = HLSError
    package let elements: Elements

    package init(_ elements: Elements) { self.elements = elements }

    package struct AsyncIterator: AsyncIteratorProtocol {
        package typealias Failure = HLSError
        var base: Elements.Iterator
        package mutating func next() async throws(HLSError) -> Elements.Element? { base.next() }
        package mutating func next(isolation actor: isolated (any Actor)?) async throws(HLSError) -> Elements.Element? { base.next() }
    }

    package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: elements.makeIterator()) }
}

extension ListInput.AsyncIterator: ImmediateIterator {
    package mutating func nextImmediately() throws(HLSError) -> ImmediatePull<Elements.Element> {
        base.next().map(ImmediatePull.element) ?? .end
    }
}
