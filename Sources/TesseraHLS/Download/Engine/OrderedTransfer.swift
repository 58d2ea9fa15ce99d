/// Bounded parallel work delivered strictly in order: at most `parallelism` items, and about
/// `maximumBytes` of them, are in flight or waiting to be consumed, so memory stays bounded
/// however far ahead the network runs and however large the items; a slow item holds back only
/// the window, never the order.
enum OrderedTransfer {
    /// Runs `work` for `0..<count` and hands each result to `consume` in index order. An item's
    /// size is `size(index)` when known up front, else the mean of the finished ones (`measure`
    /// gives a finished item's real size; without it the estimate stands) — before any has
    /// finished, an item of unknown size runs alone; one item
    /// always runs even when it alone exceeds `maximumBytes`. The first failure (of either)
    /// cancels the rest and is thrown.
    static func run<T: Sendable>(count: Int, parallelism: Int, maximumBytes: UInt64 = .max,
                                 size: (Int) -> UInt64? = { _ in nil },
                                 measure: ((T) -> UInt64)? = nil,
                                 work: @escaping @Sendable (Int) async throws(HLSError) -> T,
                                 consume: (Int, T) throws(HLSError) -> Void) async throws(HLSError) {
        let failure = await withTaskGroup(of: (Int, Result<T, HLSError>).self, returning: HLSError?.self) { group in
            var next = 0
            var window: [Int: UInt64] = [:]    // started and not yet consumed: estimated bytes
            var finished: (count: UInt64, bytes: UInt64) = (0, 0)
            /// nil: unknown, and nothing has finished to learn from.
            func estimate(_ index: Int) -> UInt64? {
                size(index) ?? (finished.count == 0 ? nil : finished.bytes / finished.count)
            }
            func startWhatFits() {
                while next < count, window.count < max(1, parallelism) {
                    // An item of unknown size waits for the window to empty until one finishes.
                    guard let cost = estimate(next) ?? (window.isEmpty ? 0 : nil) else { return }
                    let held = window.values.reduce(0, +)
                    guard window.isEmpty || held.addingReportingOverflow(cost).partialValue <= maximumBytes else { return }
                    let index = next
                    window[index] = cost
                    group.addTask {
                        do throws(HLSError) { return (index, .success(try await work(index))) } catch { return (index, .failure(error)) }
                    }
                    next += 1
                }
            }
            startWhatFits()
            var ready: [Int: T] = [:]
            var consumed = 0
            while let (index, result) = await group.next() {
                switch result {
                case .failure(let error):
                    group.cancelAll()
                    return error
                case .success(let value):
                    let actual = measure?(value) ?? window[index] ?? 0
                    window[index] = actual
                    finished = (finished.count + 1, finished.bytes &+ actual)
                    ready[index] = value
                }
                while let value = ready.removeValue(forKey: consumed) {
                    do throws(HLSError) { try consume(consumed, value) } catch {
                        group.cancelAll()
                        return error
                    }
                    window[consumed] = nil
                    consumed += 1
                }
                startWhatFits()
            }
            return nil
        }
        if let failure { throw failure }
    }
}
