import Foundation
import TesseraSupport

/// A file of JSON lines written from several threads, each line whole.
final class LineLog: Sendable {
    private let handle: Lock<FileHandle>

    /// Creates (or empties) the file at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw LiveOriginCommand.UsageError(description: "cannot create the log \(path)")
        }
        handle = Lock(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
    }

    func write(_ line: String) {
        handle.withLock { $0.write(Data((line + "\n").utf8)) }
    }
}
