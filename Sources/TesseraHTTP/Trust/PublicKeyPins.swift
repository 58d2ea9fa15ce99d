#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Public-key pinning rules: for each host pattern, the SHA-256 digests of the subject public
/// key info (SPKI) a server's certificate chain must present one of. Several pins per host allow
/// key rotation. Hosts without a rule are not pinned.
public struct PublicKeyPins: Sendable, Equatable {
    /// One rule.
    public struct Rule: Sendable, Equatable {
        /// `example.com` (that host only) or `*.example.com` (exactly one more label).
        public let hostPattern: String
        /// 32-byte SHA-256 digests of SPKI DER.
        public let digests: [[UInt8]]
    }

    /// The rules, first match wins.
    public private(set) var rules: [Rule] = []

    /// No pins.
    public init() {}

    /// Adds a rule from pins written as `sha256//<base64>` (the form `openssl` pipelines and
    /// curl's `--pinnedpubkey` use).
    /// - Throws: `invalidRequest` (`bad-pin`) when a pin is not `sha256//` and 32 bytes of base64,
    ///   when the list is empty, or when the host pattern is malformed.
    public mutating func pin(_ hostPattern: String, _ pins: [String]) throws(HTTPError) {
        let pattern = hostPattern.lowercased()
        let bare = pattern.hasPrefix("*.") ? String(pattern.dropFirst(2)) : pattern
        guard !bare.isEmpty, !bare.contains("*"), !bare.hasPrefix("."), !bare.hasSuffix("."),
              !bare.contains("..") else {
            throw HTTPError(.invalidRequest, code: .badPin, "The pin host pattern '\(hostPattern)' is not a host or *.host.")
        }
        guard !pins.isEmpty else {
            throw HTTPError(.invalidRequest, code: .badPin, "No pins were given for \(hostPattern).")
        }
        var digests: [[UInt8]] = []
        for pin in pins {
            guard pin.hasPrefix("sha256//"), let data = Data(base64Encoded: String(pin.dropFirst(8))), data.count == 32 else {
                throw HTTPError(.invalidRequest, code: .badPin, "A pin for \(hostPattern) is not sha256// followed by 32 bytes of base64.")
            }
            digests.append([UInt8](data))
        }
        rules.append(Rule(hostPattern: pattern, digests: digests))
    }

    /// The digests `host` must match, or nil when no rule covers it.
    public func digests(for host: String) -> [[UInt8]]? {
        let host = host.lowercased()
        return rules.first { rule in
            if rule.hostPattern.hasPrefix("*.") {
                let suffix = rule.hostPattern.dropFirst(1)   // ".example.com"
                guard host.hasSuffix(suffix) else { return false }
                let label = host.dropLast(suffix.count)
                return !label.isEmpty && !label.contains(".")
            }
            return host == rule.hostPattern
        }?.digests
    }

    /// The value for libcurl's `CURLOPT_PINNEDPUBLICKEY` for `host` (`sha256//a;sha256//b`), or
    /// nil when the host is not pinned.
    public func curlOption(for host: String) -> String? {
        digests(for: host).map { list in
            list.map { "sha256//" + Data($0).base64EncodedString() }.joined(separator: ";")
        }
    }
}
