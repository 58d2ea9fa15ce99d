/// Bounded parallel work delivered strictly in order: at most `parallelism` items are in flight
/// or waiting to be consumed, so memory stays bounded however far ahead the network runs; a
/// slow item holds back only the window, never the order.
enum OrderedTransfer {
    /// Runs `work` for `0..<count` and hands each result to `consume` in index order. The first
    /// failure (of either) cancels the rest and is thrown.
    static func run<T: Sendable>(count: Int, parallelism: Int,
                                 work: @escaping @Sendable (Int) async throws(HLSError) -> T,
                                 consume: (Int, T) throws(HLSError) -> Void) async throws(HLSError) {
        let failure = await withTaskGroup(of: (Int, Result<T, HLSError>).self, returning: HLSError?.self) { group in
            var next = 0
            func start(_ index: Int) {
                group.addTask {
                    do throws(HLSError) { return (index, .success(try await work(index))) } catch { return (index, .failure(error)) }
                }
            }
            while next < min(count, max(1, parallelism)) {
                start(next)
                next += 1
            }
            var ready: [Int: T] = [:]
            var consumed = 0
            while let (index, result) = await group.next() {
                switch result {
                case .failure(let error):
                    group.cancelAll()
                    return error
                case .success(let value):
                    ready[index] = value
                }
                while let value = ready.removeValue(forKey: consumed) {
                    do throws(HLSError) { try consume(consumed, value) } catch {
                        group.cancelAll()
                        return error
                    }
                    consumed += 1
                    if next < count {
                        start(next)
                        next += 1
                    }
                }
            }
            return nil
        }
        if let failure { throw failure }
    }
}
