#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP

/// The network options of every command that fetches (`fetch`, `inspect`, `download`, and the
/// ones to come): header fields scoped to the entry URL's origin (and the hosts named with
/// `--header-host`), a CA bundle, public-key pins for the entry host, the time to the first
/// response byte per attempt, and the number of retries.
struct NetworkOptions: Sendable {
    var headers = HTTPHeaders()
    var headerHosts: Set<String> = []
    var certificateAuthorities: URL?
    var pins: [String] = []
    var timeout: Duration?
    var retries: Int?

    /// The default retries of the HLS commands (4 attempts in all).
    static let defaultRetries = 3

    /// The options' lines for a command's help: flag, then what it does with its default.
    static let help: [(String, String)] = [
        ("-H, --header 'Name: value'", "send this field (repeatable) to the entry URL's origin only; default none"),
        ("--header-host <host>", "also send the -H fields to this host (repeatable: a key or CDN host); default none"),
        ("--cacert <file>", "trust the CA certificates in this PEM file instead of the system store"),
        ("--pin sha256//<base64>", "accept the entry host only with this public key (repeatable); default no pin"),
        ("--timeout <seconds>", "per attempt: time to the first response byte of any request, and to the whole of a playlist, key or steering/external resource; default 30 to the first byte (playlists, keys: 10), playlists 30 in all (keys 10), each also cut below 1 KiB/s for 10 s"),
        ("--retries <N>", "retries of each request, 0–20 (--retry is the same); default 3"),
    ]

    /// The options' synopsis.
    static let usage = "[-H 'Name: value']... [--header-host <host>]... [--cacert <file>] [--pin sha256//<base64>]... "
        + "[--timeout <seconds>] [--retries <N>]"

    /// Takes `argument` (and its value from `rest`) when it is a network option; false otherwise.
    mutating func parse(_ argument: String, _ rest: inout [String]) throws(CommandLineArguments.UsageError) -> Bool {
        func value() throws(CommandLineArguments.UsageError) -> String {
            guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "\(argument) needs a value") }
            return rest.removeFirst()
        }
        switch argument {
        case "-H", "--header":
            let (name, field) = try FetchArguments.header(try value())
            headers.add(name, field)
        case "--header-host":
            let host = try value()
            guard !host.isEmpty, !host.contains("/"), !host.contains(":") else {
                throw CommandLineArguments.UsageError(message: "--header-host needs a host name, not \(host)")
            }
            headerHosts.insert(host.lowercased())
        case "--cacert":
            let file = try value()
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw CommandLineArguments.UsageError(message: "--cacert \(file) is not a readable file")
            }
            certificateAuthorities = URL(fileURLWithPath: file)
        case "--pin":
            let pin = try value()
            var check = PublicKeyPins()
            do { try check.pin("example.com", [pin]) } catch {
                throw CommandLineArguments.UsageError(message: "--pin \(pin) is not sha256// and 32 bytes of base64")
            }
            pins.append(pin)
        case "--timeout":
            let text = try value()
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                throw CommandLineArguments.UsageError(message: "--timeout needs seconds from 0 to 3600, not \(text)")
            }
            timeout = .milliseconds(Int64(seconds * 1000))
        case "--retries", "--retry":
            let text = try value()
            guard let count = Int(text), (0...20).contains(count) else {
                throw CommandLineArguments.UsageError(message: "\(argument) needs a number from 0 to 20, not \(text)")
            }
            retries = count
        default:
            return false
        }
        return true
    }

    /// The libcurl transport's trust for a job whose entry URL is `entry`.
    /// - Throws: `bad-pin`.
    func transport(entry: URL, base: CurlTransport.Configuration = CurlTransport.Configuration()) throws(HTTPError) -> CurlTransport.Configuration {
        var configuration = base
        configuration.certificateAuthorities = certificateAuthorities
        if !pins.isEmpty, let host = entry.host { try configuration.pins.pin(host, pins) }
        return configuration
    }

    /// The pipeline's policies: retries, the scoped header fields, and the timeout on every
    /// purpose (over `base`).
    func pipeline(entry: URL, base: HTTPPipelineConfiguration, defaultRetries: Int = NetworkOptions.defaultRetries) -> HTTPPipelineConfiguration {
        var configuration = base
        let retries = self.retries ?? defaultRetries
        configuration.retry = retries == 0 ? .never : configuration.retry
        if retries > 0 { configuration.retry.maximumAttempts = retries + 1 }
        if headers.count > 0 {
            configuration.interceptors.append(ScopedHeaders(headers: headers, entry: entry, hosts: headerHosts))
        }
        if let timeout {
            var limits = PurposeLimits.hls
            for purpose in limits.purposes + [.general] {
                var entry = limits[purpose] ?? TransferLimits()
                entry.timeToFirstByte = timeout
                // A playlist, key or steering/external resource: the whole transfer too.
                if PurposeLimits.smallResources.contains(purpose) { entry.total = timeout }
                limits[purpose] = entry
            }
            configuration.purposeLimits = limits
        }
        return configuration
    }
}
