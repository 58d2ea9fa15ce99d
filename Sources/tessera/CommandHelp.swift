/// One command's help, the shape every command follows: its synopsis, what it does, one line
/// per flag with its default, and an example. `tessera <command> --help` and
/// `tessera help <command>` print it.
struct CommandHelp: Sendable {
    let name: String
    let synopsis: String
    let summary: String
    let flags: [(String, String)]
    let example: String

    /// The printed help.
    var text: String {
        let width = min(34, (flags.map(\.0.count).max() ?? 0) + 2)
        var lines = ["usage: \(synopsis)", "", summary]
        if !flags.isEmpty {
            lines += ["", "options:"]
            for (flag, description) in flags {
                let padded = flag.count < width ? flag + String(repeating: " ", count: width - flag.count) : flag + "  "
                lines.append("  " + padded + description)
            }
        }
        lines += ["", "example:", "  " + example]
        return lines.joined(separator: "\n")
    }

    /// Every command's help, by name.
    static let all: [String: CommandHelp] = Dictionary(uniqueKeysWithValues: [inspect, graph, download, PackageArguments.help, VerifyPackageCommand.help, ServeCommand.help, WatchCommand.help, RecordCommand.help, fetch, webSocket, validate, demo].map { ($0.name, $0) })

    static let inspect = CommandHelp(
        name: "inspect",
        synopsis: "tessera inspect <file|URL|-> [--json] [--strict] \(NetworkOptions.usage)",
        summary: "Parses a playlist (a file, a URL fetched through the client's policies, or - for standard input) and prints its summary and diagnostics. Exit 0, or 1 when it cannot be read or parsed.",
        flags: [("--json", "print the whole model and diagnostics as JSON; default a summary"),
                ("--strict", "make every error diagnostic fatal; default lenient")] + NetworkOptions.help,
        example: "tessera inspect https://cdn.example/master.m3u8 --json")

    static let graph = CommandHelp(
        name: "graph",
        synopsis: GraphArguments.usage,
        summary: "Loads a whole presentation — the multivariant playlist and every media playlist it references, each once, in parallel — and prints its tree (variants, renditions by group, I-frame variants, pathways) and every diagnostic, single- and cross-playlist, each naming its playlist. A file's children resolve beside it or against --base. Exit 0 when the graph loaded, 1 when it could not (or --strict / --fail-on found such a diagnostic), 2 on usage errors.",
        flags: [("--json", "print one JSON document (multivariant, playlists, selection, steering, diagnostics); default the tree"),
                ("--strict", "a child that fails to load fails the command, and any error diagnostic exits 1; default lenient"),
                ("--fail-on info|warning|error", "exit 1 when a diagnostic is this severe or worse; default never (error with --strict)"),
                ("--authoring", "add Apple HLS Authoring Specification guidance (authoring-* diagnostics); default off"),
                ("--parallel <N>", "media playlists fetched at once, 1–64; default 8"),
                ("--base <URL>", "resolve a file's children against this URL; default beside the file")]
            + SelectionOptions.variantHelp + SelectionOptions.renditionHelp + NetworkOptions.help,
        example: "tessera graph https://cdn.example/master.m3u8 --fail-on warning")

    static let download = CommandHelp(
        name: "download",
        synopsis: DownloadArguments.usage,
        summary: "Downloads an HLS VOD into one verified file, resumable after a crash. To .mp4, .m4v or .mov: one MP4 muxed by tessera from the variant, the audio renditions --audio chooses and (beside it, as .vtt or .srt) the subtitles --subtitles chooses; to .m4a: that audio alone; to .vtt or .srt: one subtitle track alone (the rendition chosen, or the subtitles playlist given); to .ts or any other name: the variant's stream assembled byte for byte. Exit 0, 1 on failure (the staged result and its checkpoint stay for transient failures), 2 on usage errors.",
        flags: [("-o, --output <file>", "the file to write (required); its extension chooses MP4, M4A, WebVTT, SubRip or the source's own container"),
                ("--format \(DownloadOutput.formats)", "what to write when -o's extension names none of these; one it contradicts is a usage error")] + SelectionOptions.variantHelp + [
                ("--audio default|none|all|lang:<tags>|name:<NAME>", "MP4 output: the audio renditions of the variant's group, each a track; default the group's default (the variant's own audio when it has no group)"),
                ("--subtitles default|none|all|lang:<tags>|name:<NAME>", "MP4 output: the subtitle renditions written beside it as <name>.<LANGUAGE>.vtt; .vtt/.srt output: the one rendition; default the DEFAULT=YES one"),
                ("--subtitle-format vtt|srt", "MP4 output: the format of the subtitle files beside it; default vtt"),
                ("--embed-subtitles", "MP4 output: the chosen subtitle tracks go into the file as timed text (tx3g, with their language and NAME) instead of beside it"),
                ("--allow-gaps", "MP4 or subtitles output: keep EXT-X-GAP segments as holes on the timeline (reported) instead of refusing the plan"),
                ("--fragmented", "MP4 output: one fragmented MP4 (iso6, movie fragments of about 2 s cut at sync samples) instead of a progressive one with the moov first"),
                ("--sha256", "MP4 output: the file's SHA-256 in the summary (its moov comes first and is known last, so the file is read once more after the transfer); the other outputs hash as they write and always show it"),
                ("--parallel <N>", "requests in flight, 1–32; default 6"),
                ("--no-resume", "ignore a checkpoint of an earlier run; default resume"),
                ("--dry-run", "plan only: no media, no key, nothing written"),
                ("--overwrite", "replace an existing file at commit; default refuse"),
                ("--no-steering", "ignore the presentation's Content Steering; default follow it (failover between pathways)"),
                ("--prefetch-session-keys", "fetch identity AES-128 EXT-X-SESSION-KEYs while the media playlist loads; default off")] + NetworkOptions.help,
        example: "tessera download https://cdn.example/vod/master.m3u8 -o movie.mp4 --audio lang:fr --subtitles lang:fr")

    static let fetch = CommandHelp(
        name: "fetch",
        synopsis: FetchArguments.usage,
        summary: "One request through the HTTP client's pipeline and policies. The body goes to standard output, or atomically to -o. Any status but 2xx fails (exit 1); each retry's wait is said on standard error.",
        flags: [("-o, --output <file>", "write the body to this file, atomically; default standard output"),
                ("--overwrite", "replace an existing -o file; default refuse"),
                ("-r, --range <start>-[<end>]", "ask for this byte range; default the whole body"),
                ("--allow-http", "allow a plain http URL; default https only"),
                ("--events", "print every request event as a JSON line on standard error"),
                ("--aws-sigv4 aws:amz:<region>:<service>", "sign the request with AWS Signature V4, as curl does (a session token goes in -H 'x-amz-security-token: …'); needs --user"),
                ("-u, --user <key>:<secret>", "the access key ID and secret access key --aws-sigv4 signs with; never printed")] + NetworkOptions.help,
        example: "tessera fetch https://cdn.example/seg_001.ts -o seg_001.ts --retries 5")

    static let webSocket = CommandHelp(
        name: "ws",
        synopsis: WebSocketCommand.usage,
        summary: "A WebSocket session (RFC 6455) on standard input and output: each line read is sent as a text message, each message received is printed on its own line (binary ones as base64:<…>). End of input sends a normal close once --linger has passed (the answers to the last lines still print). Exit 0 on a normal close (1000, 1001 or no code), 1 on any other end — a refused or broken handshake, a network failure, a protocol error, a dead peer — said on standard error, 2 on usage errors.",
        flags: [("--allow-http", "allow a plain ws:// URL; default wss:// only"),
                ("--protocol <name>", "offer this subprotocol (repeatable); default none"),
                ("--linger <seconds>", "after the end of input, keep printing what arrives this long before the normal close (a server close ends it sooner); default 1"),
                ("-H, --header 'Name: value'", "send this field with the upgrade (repeatable); the handshake's own fields are refused"),
                ("--cacert <file>", "trust the CA certificates in this PEM file instead of the system store"),
                ("--pin sha256//<base64>", "accept the host only with this public key (repeatable); default no pin"),
                ("--timeout <seconds>", "connect and upgrade deadline, each; default 10"),
                ("--retries <N>", "reconnect up to N times after a network failure, a dead peer or a 5xx/429 refusal (backoff 0.5 s doubling, jittered); default 0")],
        example: "echo subscribe | tessera ws wss://feed.example/live -H 'Authorization: Bearer …'")

    static let validate = CommandHelp(
        name: "validate",
        synopsis: "tessera validate <file> [--json]",
        summary: "Checks the structure of an MPEG-TS, MP4 (progressive or fragmented) or WebVTT file. Exit 0 when it has no error finding, 1 when it has one or its format is none of these, 2 on usage errors.",
        flags: [("--json", "print the findings as one JSON document; default one line each")],
        example: "tessera validate movie.ts --json")

    static let demo = CommandHelp(
        name: "demo",
        synopsis: "tessera demo [--fixtures <folder>] [--keep] [--allow-missing-players] [--live-origin <path>]",
        summary: "Serves the bundled fixtures on loopback, downloads them through the whole pipeline, checks every output against its pinned digest and has ffmpeg decode them; then packages the multivariant fixture, verifies the package, serves it and has ffmpeg and headless Chromium play it over loopback; then records a live stream from the test-support origin tessera-live-origin, verifies the recording and has both play it (SKIPPED, saying how to build it, when that origin is not beside tessera); last, downloads the multivariant fixture as one MP4 with its separate audio and its subtitles beside it and has ffmpeg and headless Chromium play it, the subtitles shown.",
        flags: [("--fixtures <folder>", "the fixtures folder; default ./Fixtures"),
                ("--keep", "keep the outputs; default removed"),
                ("--allow-missing-players", "without ffmpeg, ffprobe or Chromium, skip that check (SKIPPED) instead of failing; default fail"),
                ("--live-origin <path>", "the tessera-live-origin executable (swift build --product tessera-live-origin); default beside tessera, the live part SKIPPED without it")],
        example: "tessera demo")
}
