#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// A `MutationStore` in an append-only log file that survives restarts (and kill -9): each save
/// or removal is one fsynced line; the log is compacted when it holds mostly finished entries.
public final class FileMutationStore: MutationStore {
    private struct Record: Codable {
        var put: Mutation?
        var remove: String?
    }

    private struct State {
        var log: AppendOnlyLog<Record>
        var live: [Mutation]
    }

    private let state: Lock<State>

    /// Opens (or creates) the store's log at `file`, replaying what it holds.
    /// - Throws: `file` (`log-unusable`).
    public init(file: URL) throws(HTTPError) {
        let log = try HTTPError.file { () throws(SupportError) in try AppendOnlyLog<Record>(file: file) }
        var live: [Mutation] = []
        for record in log.opened {
            if let mutation = record.put {
                if let index = live.firstIndex(where: { $0.idempotencyKey == mutation.idempotencyKey }) {
                    live[index] = mutation
                } else {
                    live.append(mutation)
                }
            } else if let id = record.remove {
                live.removeAll { $0.idempotencyKey == id }
            }
        }
        state = Lock(State(log: log, live: live))
    }

    public func load() throws(HTTPError) -> [Mutation] { state.withLock { $0.live } }

    public func save(_ mutation: Mutation) throws(HTTPError) {
        try state.withLock { state throws(HTTPError) in
            try HTTPError.file { () throws(SupportError) in try state.log.append(Record(put: mutation)) }
            if let index = state.live.firstIndex(where: { $0.idempotencyKey == mutation.idempotencyKey }) {
                state.live[index] = mutation
            } else {
                state.live.append(mutation)
            }
        }
    }

    public func remove(_ id: String) throws(HTTPError) {
        try state.withLock { state throws(HTTPError) in
            try HTTPError.file { () throws(SupportError) in try state.log.append(Record(remove: id)) }
            state.live.removeAll { $0.idempotencyKey == id }
            if state.log.lineCount > 64, state.log.lineCount > 4 * state.live.count {
                try HTTPError.file { () throws(SupportError) in try state.log.compact(state.live.map { Record(put: $0) }) }
            }
        }
    }
}
