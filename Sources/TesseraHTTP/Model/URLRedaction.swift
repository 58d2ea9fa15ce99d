import Foundation

/// URL text safe for messages, logs and events: scheme, host, port and path only. User-info,
/// query and fragment (where credentials and signed tokens live) are replaced by markers.
package enum URLRedaction {
    /// The redacted text of `url`.
    package static func redact(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "<unparseable URL>" }
        let hadQuery = parts.percentEncodedQuery != nil
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        let base = parts.string ?? "<unparseable URL>"
        return hadQuery ? base + "?<redacted>" : base
    }
}
