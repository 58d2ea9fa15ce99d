#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// Parses `tessera fetch`'s arguments.
enum FetchArguments {
    static let usage = "tessera fetch <URL> [-o <file>] [--overwrite] [-r <start>-[<end>]] [--allow-http] [--events] "
        + "[--aws-sigv4 aws:amz:<region>:<service> --user <key>:<secret>] "
        + NetworkOptions.usage

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> FetchCommand {
        var rest = arguments
        var positional: [String] = []
        var options: [(String, String?)] = []
        var network = NetworkOptions()
        let valued: Set = ["-o", "--output", "-r", "--range", "--aws-sigv4", "-u", "--user"]
        while !rest.isEmpty {
            let argument = rest.removeFirst()
            if try network.parse(argument, &rest) { continue }
            if valued.contains(argument) {
                guard !rest.isEmpty else { throw usage("\(argument) needs a value") }
                options.append((argument, rest.removeFirst()))
            } else if argument.hasPrefix("-") {
                options.append((argument, nil))
            } else {
                positional.append(argument)
            }
        }
        let url = try HTTPURLArgument.parse(positional, exactlyOne: "fetch needs exactly one URL")
        var command = FetchCommand(url: url)
        command.network = network
        var scope: (region: String, service: String)?
        var user: (key: String, secret: String)?
        for (option, value) in options {
            switch (option, value) {
            case ("-o", let file?), ("--output", let file?): command.output = URL(fileURLWithPath: file)
            case ("-r", let spec?), ("--range", let spec?): command.range = try range(spec)
            case ("--allow-http", nil): command.allowsHTTP = true
            case ("--events", nil): command.showsEvents = true
            case ("--overwrite", nil): command.overwrite = true
            case ("--aws-sigv4", let text?): scope = try awsScope(text)
            case ("-u", let text?), ("--user", let text?):
                guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex else {
                    throw usage("--user needs <key>:<secret>")
                }
                user = (String(text[..<colon]), String(text[text.index(after: colon)...]))
            default: throw usage("unknown option \(option)")
            }
        }
        switch (scope, user) {
        case let ((region, service)?, (key, secret)?):
            command.signer = AWSSignatureV4(credentials: AWSCredentials(accessKeyId: key, secretAccessKey: secret), region: region, service: service)
        case (nil, nil): break
        case (_?, nil): throw usage("--aws-sigv4 needs --user <key>:<secret>")
        case (nil, _?): throw usage("--user is for --aws-sigv4 (give the scope: aws:amz:<region>:<service>)")
        }
        if url.scheme?.lowercased() == "http", !command.allowsHTTP {
            throw usage("\(positional[0]) is plain http; pass --allow-http to fetch it anyway")
        }
        return command
    }

    /// curl's `aws:amz:<region>:<service>`.
    static func awsScope(_ text: String) throws(CommandLineArguments.UsageError) -> (region: String, service: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = Set("abcdefghijklmnopqrstuvwxyz0123456789-".utf8)
        guard parts.count == 4, parts[0].lowercased() == "aws", parts[1].lowercased() == "amz",
              [parts[2], parts[3]].allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(name.contains) }) else {
            throw usage("--aws-sigv4 takes aws:amz:<region>:<service> (lowercase names), not \(text)")
        }
        return (parts[2], parts[3])
    }

    /// `start-end` (inclusive) or `start-`.
    static func range(_ spec: String) throws(CommandLineArguments.UsageError) -> ByteRange {
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let start = UInt64(parts[0]) else { throw usage("-r needs <start>-[<end>], got \(spec)") }
        if parts[1].isEmpty { return ByteRange(offset: start, length: nil) }
        guard let end = UInt64(parts[1]), end >= start, end < UInt64.max else { throw usage("-r needs <start>-[<end>] with end ≥ start, got \(spec)") }
        return ByteRange(offset: start, length: end - start + 1)
    }

    /// `Name: value`, with a token name and no line breaks.
    static func header(_ line: String) throws(CommandLineArguments.UsageError) -> (String, String) {
        guard let colon = line.firstIndex(of: ":"), !line.contains("\r"), !line.contains("\n") else {
            throw usage("-H needs 'Name: value'")
        }
        let name = String(line[..<colon])
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        guard !name.isEmpty, name.utf8.allSatisfy(token.contains) else { throw usage("-H header name '\(name)' is not a token") }
        return (name, ASCIIText.trimmingWhitespace(line[line.index(after: colon)...]))
    }

    private static func usage(_ message: String) -> CommandLineArguments.UsageError {
        CommandLineArguments.UsageError(message: message)
    }
}
