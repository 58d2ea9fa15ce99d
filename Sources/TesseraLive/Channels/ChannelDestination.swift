#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a channel's next recording goes: `NAME` under the recorder's directory, else the first
/// of `NAME.2`, `NAME.3`… that does not exist — so a recording interrupted by kill -9 (nothing
/// at its destination yet) is found again, and resumed, by the same command.
enum ChannelDestination {
    /// The most recordings of one channel in one directory.
    static let maximumRecordings = 100_000

    static func next(in directory: URL, name: String) -> URL {
        for number in 1...maximumRecordings {
            let url = directory.appendingPathComponent(number == 1 ? name : "\(name).\(number)")
            if !FileManager.default.fileExists(atPath: url.path) { return url }
        }
        // All taken: the recording fails with `destination-exists`, as the channel's error.
        return directory.appendingPathComponent("\(name).\(maximumRecordings)")
    }
}
