#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one http or https URL a command takes (`download`, `package`, `watch`, `record`, `fetch`).
enum HTTPURLArgument {
    /// The URL `positional` holds; `exactlyOne` is the usage message when it holds none or more
    /// than one ("watch needs exactly one playlist URL").
    static func parse(_ positional: [String], exactlyOne: String) throws(CommandLineArguments.UsageError) -> URL {
        guard positional.count == 1 else { throw CommandLineArguments.UsageError(message: exactlyOne) }
        guard let url = URL(string: positional[0]), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw CommandLineArguments.UsageError(message: "\(positional[0]) is not an http or https URL")
        }
        return url
    }
}
