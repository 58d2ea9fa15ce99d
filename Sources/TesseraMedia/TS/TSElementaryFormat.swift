/// How the MP4 samples of one sample description become an MPEG-TS elementary stream (ISO/IEC
/// 13818-1 Table 2-34 stream types; ISO/IEC 14496-15 for the NAL unit forms; ISO/IEC 13818-7
/// for ADTS; ATSC A/52 for AC-3 and E-AC-3 in MPEG-TS): its stream type and PES stream ID, and
/// how a sample's bytes are written — H.264/H.265 NAL units each after a start code instead of
/// their length, an access unit delimiter first and the parameter sets before each random
/// access picture that does not carry its own; raw AAC frames after an ADTS header; AC-3,
/// E-AC-3 and MPEG audio frames as they are (self-delimiting). Made from the readers' media, or
/// from a fragmented MP4 source's copied sample entry (`avc1`/`avc3` with `avcC`, `hvc1`/`hev1`
/// with `hvcC`, `mp4a` with an AAC or MPEG audio `esds`, `ac-3`, `ec-3`).
struct TSElementaryFormat: Sendable, Equatable {
    /// What is done to a sample's bytes.
    enum Payload: Sendable, Equatable {
        /// NAL units after `lengthSize`-byte lengths, to Annex B; `parameterSets` (their NAL
        /// types `parameterSetTypes`) before a random access picture without its own.
        case annexB(lengthSize: Int, delimiter: [UInt8], parameterSets: [[UInt8]], parameterSetTypes: Set<UInt8>, hevc: Bool)
        /// A raw AAC frame, an ADTS header before it.
        case adts(profile: UInt8, frequencyIndex: UInt8, channels: UInt8)
        /// A whole self-delimiting audio frame.
        case whole
    }

    let streamType: TSStreamType
    /// `0xE0` video, `0xC0` MPEG audio and AAC, `0xBD` (private stream 1) AC-3 and E-AC-3.
    let streamID: UInt8
    /// The PMT registration descriptor's format identifier (`AC-3`, `EAC3`).
    let registration: [UInt8]?
    let payload: Payload

    var isVideo: Bool { streamID == 0xE0 }

    /// The format of `media`.
    /// - Throws: `unsupported-stream` for timed text, and for a copied entry whose codec MPEG-TS
    ///   does not carry here; `malformed-boxes` for a copied entry whose configuration does not read.
    init(_ media: MP4Track.Media) throws(MediaError) {
        switch media {
        case .avc(let configuration):
            self.init(video: .h264, lengthSize: 4, parameterSets: configuration.sequenceParameterSets + configuration.pictureParameterSets, hevc: false)
        case .hevc(let configuration):
            self.init(video: .hevc, lengthSize: 4,
                      parameterSets: configuration.videoParameterSets + configuration.sequenceParameterSets + configuration.pictureParameterSets, hevc: true)
        case .aac(let configuration):
            try self.init(aac: configuration.objectType, frequencyIndex: configuration.samplingFrequencyIndex, channels: configuration.channelConfiguration)
        case .ac3:
            self.init(streamType: .ac3, streamID: 0xBD, registration: Array("AC-3".utf8), payload: .whole)
        case .eac3:
            self.init(streamType: .eac3, streamID: 0xBD, registration: Array("EAC3".utf8), payload: .whole)
        case .mpegAudio(let configuration):
            self.init(streamType: configuration.version == 1 ? .mpeg1Audio : .mpeg2Audio, streamID: 0xC0, registration: nil, payload: .whole)
        case .timedText:
            throw MediaError(.unsupportedStream, "Timed text has no MPEG-TS form here: subtitles go beside a transport stream.")
        case .copied(let entry):
            self = try Self.copied(entry)
        }
    }

    private init(streamType: TSStreamType, streamID: UInt8, registration: [UInt8]?, payload: Payload) {
        self.streamType = streamType
        self.streamID = streamID
        self.registration = registration
        self.payload = payload
    }

    private init(video type: TSStreamType, lengthSize: Int, parameterSets: [[UInt8]], hevc: Bool) {
        let types = Set(parameterSets.compactMap { $0.first.map { hevc ? ($0 >> 1) & 0x3F : $0 & 0x1F } })
        // H.264 access unit delimiter (type 9, any picture type); H.265 (type 35, temporal ID 1, any picture type).
        self.init(streamType: type, streamID: 0xE0, registration: nil,
                  payload: .annexB(lengthSize: lengthSize, delimiter: hevc ? [0x46, 0x01, 0x50] : [0x09, 0xF0], parameterSets: parameterSets,
                                   parameterSetTypes: types, hevc: hevc))
    }

    private init(aac objectType: UInt8, frequencyIndex: UInt8, channels: UInt8) throws(MediaError) {
        // ADTS has two profile bits (object types 1–4) and no program config element.
        guard (1...4).contains(objectType), frequencyIndex < 13, (1...7).contains(channels) else {
            throw MediaError(.unsupportedStream, "AAC of object type \(objectType), frequency index \(frequencyIndex), channel configuration \(channels) has no ADTS header.")
        }
        self.init(streamType: .aacADTS, streamID: 0xC0, registration: nil, payload: .adts(profile: objectType - 1, frequencyIndex: frequencyIndex, channels: channels))
    }

    /// The format of a copied sample entry, by its four-character code and configuration box.
    private static func copied(_ entry: CopiedSampleEntry) throws(MediaError) -> TSElementaryFormat {
        let code = String(decoding: entry.bytes.dropFirst(4).prefix(4), as: UTF8.self)
        let boxes = SampleEntryBoxes(entry)
        switch code {
        case "avc1", "avc3":
            let record = try boxes.child("avcC")
            guard record.count >= 7 else { throw MediaError(.malformedBoxes, "An avcC of \(record.count) bytes is too short.") }
            var reader = SampleEntryBoxes.Cursor(record, at: 6)
            var sets: [[UInt8]] = []
            for _ in 0..<(record[5] & 0x1F) { sets.append(try reader.lengthPrefixed()) }
            let pictures = try reader.byte()
            for _ in 0..<pictures { sets.append(try reader.lengthPrefixed()) }
            return TSElementaryFormat(video: .h264, lengthSize: Int(record[4] & 3) + 1, parameterSets: sets, hevc: false)
        case "hvc1", "hev1":
            let record = try boxes.child("hvcC")
            guard record.count >= 23 else { throw MediaError(.malformedBoxes, "An hvcC of \(record.count) bytes is too short.") }
            var reader = SampleEntryBoxes.Cursor(record, at: 22)
            var sets: [[UInt8]] = []
            for _ in 0..<(try reader.byte()) {
                _ = try reader.byte()
                let count = Int(try reader.byte()) << 8 | Int(try reader.byte())
                for _ in 0..<count { sets.append(try reader.lengthPrefixed()) }
            }
            return TSElementaryFormat(video: .hevc, lengthSize: Int(record[21] & 3) + 1, parameterSets: sets, hevc: true)
        case "mp4a":
            let (objectType, specific) = try boxes.elementaryStreamDescriptor()
            switch objectType {
            case 0x6B: return TSElementaryFormat(streamType: .mpeg1Audio, streamID: 0xC0, registration: nil, payload: .whole)
            case 0x69: return TSElementaryFormat(streamType: .mpeg2Audio, streamID: 0xC0, registration: nil, payload: .whole)
            case 0x40, 0x66, 0x67, 0x68:
                guard specific.count >= 2 else { throw MediaError(.malformedBoxes, "An AAC esds without its AudioSpecificConfig.") }
                var audioObject = specific[0] >> 3
                let index = (specific[0] & 7) << 1 | specific[1] >> 7
                let channels = (specific[1] >> 3) & 0x0F
                if audioObject == 5 || audioObject == 29, specific.count >= 3, index != 15 {
                    // HE-AAC signalled explicitly: ADTS carries the core (its rate and object type,
                    // after the extension's rate); the decoder finds the SBR in the frames.
                    audioObject = (specific[2] >> 2) & 0x1F
                }
                if objectType != 0x40 { audioObject = objectType - 0x65 }   // MPEG-2 AAC Main, LC, SSR
                return try TSElementaryFormat(aac: audioObject, frequencyIndex: index, channels: channels)
            default:
                throw MediaError(.unsupportedStream, "mp4a audio of object type 0x\(String(objectType, radix: 16)) has no MPEG-TS form here.")
            }
        case "ac-3": return TSElementaryFormat(streamType: .ac3, streamID: 0xBD, registration: Array("AC-3".utf8), payload: .whole)
        case "ec-3": return TSElementaryFormat(streamType: .eac3, streamID: 0xBD, registration: Array("EAC3".utf8), payload: .whole)
        default:
            throw MediaError(.unsupportedStream, "A \(code) track has no MPEG-TS form here (H.264, H.265, AAC, AC-3, E-AC-3 and MPEG audio have).")
        }
    }
}
