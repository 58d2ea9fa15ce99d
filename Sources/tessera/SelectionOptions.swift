#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist

/// The selection flags `download` and `graph` share: `--variant` and the capability filters,
/// and (graph; packages next) `--audio` and `--subtitles`.
struct SelectionOptions: Sendable {
    var policy = SelectionPolicy()
    /// Whether `--audio` / `--subtitles` are accepted.
    let takesRenditions: Bool

    static let variantUsage = "[--variant best|lowest|max-height <N>|max-bandwidth <N>] [--codecs <list>] [--video-range sdr|pq|hlg]... "
        + "[--hdcp NONE|TYPE-0|TYPE-1] [--max-frame-rate <N>]"
    static let renditionUsage = "[--audio default|none|all|lang:<tags>|name:<NAME>] [--subtitles default|none|all|lang:<tags>|name:<NAME>] "
        + "[--video default|none|all|lang:<tags>|name:<NAME>]"

    static let variantHelp: [(String, String)] = [
        ("--variant best|lowest|max-height <N>|max-bandwidth <N>", "which variant; ties: SCORE, resolution, AVERAGE-BANDWIDTH, order; default best"),
        ("--codecs <list>", "only variants whose CODECS are all among these (avc1,hvc1,mp4a.40.2,…); repeatable; default any"),
        ("--video-range sdr|pq|hlg", "only variants of these VIDEO-RANGEs (absent = SDR); repeatable; default any"),
        ("--hdcp NONE|TYPE-0|TYPE-1", "the strongest HDCP-LEVEL the output enforces; default any"),
        ("--max-frame-rate <N>", "only variants of at most this FRAME-RATE; default any"),
    ]
    static let renditionHelp: [(String, String)] = [
        ("--audio default|none|all|lang:<tags>|name:<NAME>", "audio renditions of the variant's group; lang: BCP 47 tags, RFC 4647 lookup; default default"),
        ("--subtitles default|none|all|lang:<tags>|name:<NAME>", "subtitle renditions of the variant's group; default default (the DEFAULT=YES one)"),
        ("--video default|none|all|lang:<tags>|name:<NAME>", "alternative video renditions of the variant's VIDEO group, beside its own stream; default none"),
    ]

    init(takesRenditions: Bool) { self.takesRenditions = takesRenditions }

    /// Takes `argument` (and its values from `rest`) when it is a selection flag; false otherwise.
    mutating func parse(_ argument: String, _ rest: inout [String]) throws(CommandLineArguments.UsageError) -> Bool {
        func value() throws(CommandLineArguments.UsageError) -> String {
            guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "\(argument) needs a value") }
            return rest.removeFirst()
        }
        switch argument {
        case "--variant": policy.variant = try Self.variant(try value(), &rest)
        case "--codecs":
            let list = try value().split(separator: ",").map(String.init).filter { !$0.isEmpty }
            guard !list.isEmpty else { throw CommandLineArguments.UsageError(message: "--codecs needs formats such as avc1,mp4a.40.2") }
            policy.capabilities.codecs = (policy.capabilities.codecs ?? []) + list
        case "--video-range":
            let text = try value()
            let range: Variant.VideoRange
            switch text.lowercased() {
            case "sdr": range = .sdr
            case "pq": range = .pq
            case "hlg": range = .hlg
            default: throw CommandLineArguments.UsageError(message: "--video-range takes sdr, pq or hlg, not \(text)")
            }
            policy.capabilities.videoRanges = (policy.capabilities.videoRanges ?? []).union([range])
        case "--hdcp":
            let text = try value()
            switch text.uppercased() {
            case "NONE": policy.capabilities.hdcp = Variant.HDCPLevel.none
            case "TYPE-0": policy.capabilities.hdcp = .type0
            case "TYPE-1": policy.capabilities.hdcp = .type1
            default: throw CommandLineArguments.UsageError(message: "--hdcp takes NONE, TYPE-0 or TYPE-1, not \(text)")
            }
        case "--max-frame-rate":
            let text = try value()
            guard let rate = Double(text), rate > 0, rate.isFinite else {
                throw CommandLineArguments.UsageError(message: "--max-frame-rate needs a positive number, not \(text)")
            }
            policy.capabilities.maximumFrameRate = rate
        case "--audio", "--subtitles", "--video":
            guard takesRenditions else { return false }
            let text = try value()
            guard let rendition = RenditionPolicy(text) else {
                throw CommandLineArguments.UsageError(message: "\(argument) takes default, none, all, lang:<tags> or name:<NAME>, not \(text)")
            }
            switch argument {
            case "--audio": policy.audio = rendition
            case "--subtitles": policy.subtitles = rendition
            default: policy.video = rendition
            }
        default:
            return false
        }
        return true
    }

    private static func variant(_ kind: String, _ rest: inout [String]) throws(CommandLineArguments.UsageError) -> VariantPreference {
        func number(_ what: String) throws(CommandLineArguments.UsageError) -> String {
            guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "--variant \(what) needs a value") }
            return rest.removeFirst()
        }
        switch kind {
        case "best": return .best
        case "lowest": return .lowest
        case "max-height":
            let text = try number("max-height")
            guard let height = Int(text), height > 0 else {
                throw CommandLineArguments.UsageError(message: "--variant max-height needs a positive number, not \(text)")
            }
            return .maximumHeight(height)
        case "max-bandwidth":
            let text = try number("max-bandwidth")
            guard let bandwidth = UInt64(text), bandwidth > 0 else {
                throw CommandLineArguments.UsageError(message: "--variant max-bandwidth needs bits per second, not \(text)")
            }
            return .maximumBandwidth(bandwidth)
        default:
            throw CommandLineArguments.UsageError(message: "--variant takes best, lowest, max-height <N> or max-bandwidth <N>, not \(kind)")
        }
    }
}
