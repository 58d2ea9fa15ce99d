import Synchronization

/// Passes a body's chunks through, counting the bytes delivered, and reports the body's end
/// (its byte count, or its failure) once — for the `finish` and `failure` events.
final class CountingBodySource: HTTPBodySource {
    private let inner: HTTPBody
    private let delivered = Atomic<Int64>(0)
    private let ended = Atomic<Bool>(false)
    private let onEnd: (@Sendable (Result<Int64, HTTPError>) -> Void)?

    init(_ inner: HTTPBody, onEnd: (@Sendable (Result<Int64, HTTPError>) -> Void)? = nil) {
        self.inner = inner
        self.onEnd = onEnd
    }

    /// Bytes handed on so far.
    var count: Int64 { delivered.load(ordering: .relaxed) }

    func nextChunk() async throws(HTTPError) -> [UInt8]? {
        let chunk: [UInt8]?
        do throws(HTTPError) {
            chunk = try await inner.nextChunk()
        } catch {
            end(.failure(error))
            throw error
        }
        guard let chunk else {
            end(.success(count))
            return nil
        }
        delivered.add(Int64(chunk.count), ordering: .relaxed)
        return chunk
    }

    func deliver(into destination: HTTPBodyDestination) async throws(HTTPError) -> HTTPBodyDelivery {
        let before = destination.count + (destination.leftover?.count ?? 0)
        let delivery: HTTPBodyDelivery
        do throws(HTTPError) {
            delivery = try await inner.deliver(into: destination)
        } catch {
            end(.failure(error))
            throw error
        }
        delivered.add(Int64(destination.count + (destination.leftover?.count ?? 0) - before), ordering: .relaxed)
        if delivery == .ended { end(.success(count)) }
        return delivery
    }

    func abandon() { inner.discard() }

    private func end(_ result: Result<Int64, HTTPError>) {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        onEnd?(result)
    }
}
