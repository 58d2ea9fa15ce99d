extension MP4Track.Media {
    /// Whether its samples are pictures.
    public var isVideo: Bool {
        switch self {
        case .avc, .hevc: true
        case .aac, .ac3, .eac3, .mpegAudio, .timedText: false
        case .copied(let entry): entry.isVideo
        }
    }

    /// Whether its samples are sound.
    public var isAudio: Bool {
        switch self {
        case .aac, .ac3, .eac3, .mpegAudio: true
        case .avc, .hevc, .timedText: false
        case .copied(let entry): !entry.isVideo
        }
    }

    /// The `hdlr` handler type: `vide`, `soun` or `sbtl`.
    var handler: String { isVideo ? "vide" : isAudio ? "soun" : "sbtl" }

    /// The picture's size, for video.
    var pictureSize: (width: Int, height: Int)? {
        switch self {
        case .avc(let configuration): (configuration.sequence.width, configuration.sequence.height)
        case .hevc(let configuration): (configuration.sequence.width, configuration.sequence.height)
        case .copied(let entry) where entry.isVideo: (entry.width, entry.height)
        default: nil
        }
    }

    /// An audio track's clock: its samples per second (a copied entry's timescale) and the
    /// samples of one frame when the codec fixes them.
    var audioClock: (rate: Int, samplesPerFrame: Int?) {
        switch self {
        case .aac(let configuration): (configuration.sampleRate, configuration.samplesPerFrame)
        case .ac3(let configuration): (configuration.sampleRate, 1536)
        case .eac3(let configuration): (configuration.sampleRate, 1536)
        case .mpegAudio(let configuration): (configuration.sampleRate, configuration.layer == 1 ? 384 : configuration.layer == 3 && configuration.version == 2 ? 576 : 1152)
        case .copied(let entry): (Int(entry.timescale), nil)
        case .avc, .hevc: (Int(MPEGTimestamp.ticksPerSecond), nil)
        case .timedText: (Int(TimedText.timescale), nil)
        }
    }

    /// Which media can be sample descriptions of one track: one codec (a copied entry: one
    /// kind, audio or video).
    public var family: String {
        switch self {
        case .avc: "avc"
        case .hevc: "hevc"
        case .aac: "aac"
        case .ac3: "ac-3"
        case .eac3: "e-ac-3"
        case .mpegAudio: "mpeg-audio"
        case .timedText: "tx3g"
        case .copied(let entry): entry.isVideo ? "copied video" : "copied audio"
        }
    }
}
