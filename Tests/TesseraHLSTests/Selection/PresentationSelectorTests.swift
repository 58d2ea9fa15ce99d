import Foundation
import Testing
import TesseraHLS
import TesseraPlaylist

@Suite("Selection: variants, renditions and I-frame variants, every choice explained (no sockets)")
struct PresentationSelectorTests {
    static func multivariant(_ lines: String...) throws -> MultivariantPlaylist {
        guard case .multivariant(let playlist) = try PlaylistParser().parse(Array(("#EXTM3U\n#EXT-X-VERSION:13\n" + lines.joined(separator: "\n") + "\n").utf8)).playlist else {
            preconditionFailure("not multivariant")
        }
        return playlist
    }

    static func select(_ playlist: MultivariantPlaylist, _ configure: (inout SelectionPolicy) -> Void = { _ in }) -> PresentationSelection {
        var policy = SelectionPolicy()
        configure(&policy)
        return PresentationSelector.select(policy, from: playlist)
    }

    static let ladder = [
        "#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS=\"avc1.4d401e,mp4a.40.2\"\n360.m3u8",
        "#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2000000,RESOLUTION=1280x720,CODECS=\"avc1.4d401f,mp4a.40.2\"\n720.m3u8",
        "#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2500000,RESOLUTION=1280x720,CODECS=\"avc1.4d401f,mp4a.40.2\"\n720b.m3u8",
        "#EXT-X-STREAM-INF:BANDWIDTH=6000000,RESOLUTION=1920x1080,CODECS=\"hvc1.2.4.L123.B0,mp4a.40.2\",VIDEO-RANGE=PQ,HDCP-LEVEL=TYPE-1,FRAME-RATE=60\n1080.m3u8",
        "#EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS=\"mp4a.40.2\"\naudio.m3u8",
    ]

    @Test("preferences and tie-breaks: BANDWIDTH, then SCORE, RESOLUTION, AVERAGE-BANDWIDTH, order", arguments: [
        (VariantPreference.best, 3), (.lowest, 4), (.maximumHeight(720), 2), (.maximumHeight(400), 0), (.maximumBandwidth(3_000_000), 2),
    ])
    func preferences(preference: VariantPreference, expected: Int) throws {
        let selection = Self.select(try Self.multivariant(Self.ladder[0], Self.ladder[1], Self.ladder[2], Self.ladder[3], Self.ladder[4])) {
            $0.variant = preference
        }
        #expect(selection.variant == expected, "\(selection.reasons)")
        #expect(selection.reasons.contains { $0.hasPrefix("variant \(expected) ") })
    }

    @Test("SCORE breaks a BANDWIDTH tie before resolution; the earlier variant breaks a full tie")
    func score() throws {
        let scored = try Self.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=1920x1080,SCORE=1\na.m3u8",
                                           "#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=640x360,SCORE=2\nb.m3u8")
        #expect(Self.select(scored).variant == 1)
        let equal = try Self.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=1\nb.m3u8")
        #expect(Self.select(equal).variant == 0 && Self.select(equal) { $0.variant = .lowest }.variant == 0)
    }

    @Test("each declared capability makes only the variants that need more ineligible, with a reason")
    func capabilities() throws {
        let playlist = try Self.multivariant(Self.ladder[0], Self.ladder[3])
        let cases: [(PlaybackCapabilities, String)] = [
            (PlaybackCapabilities(codecs: ["avc1", "mp4a.40.2"]), "CODECS format hvc1.2.4.L123.B0"),
            (PlaybackCapabilities(videoRanges: [.sdr]), "VIDEO-RANGE PQ"),
            (PlaybackCapabilities(hdcp: .type0), "HDCP-LEVEL TYPE-1"),
            (PlaybackCapabilities(maximumFrameRate: 30), "FRAME-RATE 60"),
        ]
        for (capabilities, reason) in cases {
            let selection = Self.select(playlist) { $0.capabilities = capabilities }
            #expect(selection.variant == 0, "\(capabilities)")
            #expect(selection.refusals.map(\.variant) == [1] && selection.refusals[0].reason.hasPrefix(reason), "\(selection.refusals)")
        }
        #expect(Self.select(playlist).refusals.isEmpty, "nothing declared: everything playable")
        let layouts = try Self.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=2,REQ-VIDEO-LAYOUT=\"CH-STEREO\"\nstereo.m3u8",
                                            "#EXT-X-STREAM-INF:BANDWIDTH=1\nmono.m3u8")
        #expect(Self.select(layouts) { $0.capabilities.videoLayouts = ["CH-MONO", "PROJ-RECT"] }.variant == 1)
        let protected = try Self.multivariant("#EXT-X-STREAM-INF:BANDWIDTH=2,ALLOWED-CPC=\"com.example.drm:HW\"\nhw.m3u8",
                                              "#EXT-X-STREAM-INF:BANDWIDTH=1\nsw.m3u8")
        #expect(Self.select(protected) { $0.capabilities.contentProtection = ["com.example.drm": ["SW"]] }.variant == 1)
        #expect(Self.select(protected) { $0.capabilities.contentProtection = ["other": ["SW"]] }.variant == 0, "another KEYFORMAT does not apply")
        let none = Self.select(playlist) { $0.capabilities = PlaybackCapabilities(codecs: ["vp09"]) }
        #expect(none.variant == nil && none.refusals.count == 2 && none.audio.isEmpty)
    }

    @Test("the pathway: as asked, else the steering PATHWAY-ID, else the first listed; I-frame variants of it")
    func pathways() throws {
        let playlist = try Self.multivariant(
            "#EXT-X-CONTENT-STEERING:SERVER-URI=\"s.json\",PATHWAY-ID=\"B\"",
            "#EXT-X-STREAM-INF:BANDWIDTH=2,PATHWAY-ID=\"A\"\na.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=1,PATHWAY-ID=\"B\"\nb.m3u8",
            "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=9,PATHWAY-ID=\"B\",URI=\"i9.m3u8\"",
            "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=3,PATHWAY-ID=\"B\",URI=\"i3.m3u8\"",
            "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=5,PATHWAY-ID=\"A\",URI=\"a5.m3u8\"")
        let steered = Self.select(playlist)
        #expect(steered.pathway == "B" && steered.variant == 1 && steered.iFrameVariants == [1, 0])
        #expect(Self.select(playlist) { $0.pathway = "A" }.variant == 0)
        var unsteered = playlist
        unsteered.contentSteering = nil
        #expect(Self.select(unsteered).pathway == "A")
    }

    static let renditions = try! multivariant(
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"English\",LANGUAGE=\"en-US\",AUTOSELECT=YES,URI=\"en.m3u8\"",
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"English AD\",LANGUAGE=\"en-US\",AUTOSELECT=YES,CHARACTERISTICS=\"public.accessibility.describes-video\",URI=\"ad.m3u8\"",
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"Français\",LANGUAGE=\"fr\",DEFAULT=YES,AUTOSELECT=YES,URI=\"fr.m3u8\"",
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"中文\",LANGUAGE=\"zh-Hant\",URI=\"zh.m3u8\"",
        "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"English (auto)\",LANGUAGE=\"en\",AUTOSELECT=YES,CHARACTERISTICS=\"public.machine-generated\",URI=\"en-auto.m3u8\"",
        "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"English\",LANGUAGE=\"en\",AUTOSELECT=YES,URI=\"en.vtt.m3u8\"",
        "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"Deutsch\",LANGUAGE=\"de\",CHARACTERISTICS=\"public.translation\",URI=\"de.m3u8\"",
        "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"other\",NAME=\"Other\",LANGUAGE=\"en\",URI=\"o.m3u8\"",
        "#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"a\",SUBTITLES=\"s\"\nv.m3u8")

    static func names(_ indices: [Int]) -> [String] { indices.map { renditions.renditions[$0].name } }

    @Test("renditions by policy, from the chosen variant's groups only", arguments: [
        ("default", "default", ["Français"], [String]()),
        ("none", "all", [], ["English (auto)", "English", "Deutsch"]),
        ("lang:en-GB,zh-Hant-TW,ja", "lang:de-AT,en", ["English", "中文"], ["Deutsch", "English (auto)"]),
        ("name:English AD", "name:Nope", ["English AD"], []),
    ])
    func renditions(audio: String, subtitles: String, expectedAudio: [String], expectedSubtitles: [String]) throws {
        let selection = Self.select(Self.renditions) { policy in
            policy.audio = RenditionPolicy(audio)!
            policy.subtitles = RenditionPolicy(subtitles)!
        }
        #expect(Self.names(selection.audio) == expectedAudio, "\(selection.reasons)")
        #expect(Self.names(selection.subtitles) == expectedSubtitles, "\(selection.reasons)")
        #expect(!selection.reasons.isEmpty)
    }

    @Test("characteristics: prefer, avoid and exclude accessibility, machine-generated and translated renditions")
    func characteristics() throws {
        let described = Self.select(Self.renditions) { $0.audio = RenditionPolicy(.languages(["en"]), accessibility: .prefer) }
        #expect(Self.names(described.audio) == ["English AD"])
        let human = Self.select(Self.renditions) { $0.subtitles = RenditionPolicy(.languages(["en"]), machineGenerated: .avoid) }
        #expect(Self.names(human.subtitles) == ["English"])
        let original = Self.select(Self.renditions) { $0.subtitles = RenditionPolicy(.all, machineGenerated: .exclude, translations: .exclude) }
        #expect(Self.names(original.subtitles) == ["English"])
        #expect(original.reasons.contains { $0.contains("\"Deutsch\" excluded (a translation)") })
    }

    @Test("automatic audio without DEFAULT takes the first AUTOSELECT, then the first; subtitles stay off")
    func automatic() throws {
        let playlist = try Self.multivariant(
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"one\",URI=\"1.m3u8\"",
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"two\",AUTOSELECT=YES,URI=\"2.m3u8\"",
            "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"subs\",URI=\"s.m3u8\"",
            "#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"a\",SUBTITLES=\"s\"\nv.m3u8")
        let selection = Self.select(playlist)
        #expect(selection.audio == [1] && selection.subtitles.isEmpty)
    }

    @Test("alternative video: none unless asked; all, by NAME, or the DEFAULT=YES view — from the variant's VIDEO group only")
    func alternativeVideo() throws {
        let playlist = try Self.multivariant(
            "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"v\",NAME=\"Main\",DEFAULT=YES",
            "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"v\",NAME=\"Angle 2\",URI=\"a2.m3u8\"",
            "#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"other\",NAME=\"Elsewhere\",URI=\"x.m3u8\"",
            "#EXT-X-STREAM-INF:BANDWIDTH=1,VIDEO=\"v\"\nv.m3u8")
        func names(_ selection: PresentationSelection) -> [String] { selection.video.map { playlist.renditions[$0].name } }
        let unasked = Self.select(playlist)
        #expect(unasked.video.isEmpty && unasked.reasons.contains("video: none, as asked"))
        #expect(names(Self.select(playlist) { $0.video = RenditionPolicy(.all) }) == ["Main", "Angle 2"])
        #expect(names(Self.select(playlist) { $0.video = RenditionPolicy(.name("Angle 2")) }) == ["Angle 2"])
        #expect(names(Self.select(playlist) { $0.video = RenditionPolicy(.automatic) }) == ["Main"])
    }

    @Test("RFC 4647 lookup truncates, drops single-letter subtags with the next, and falls back to the primary prefix")
    func lookup() {
        #expect(LanguageMatch.matches("zh-Hant-CN-x-private1", in: ["zh-Hant"]).indices == [0])
        #expect(LanguageMatch.matches("EN", in: ["fr", "en-GB", "en-US"]) == ([1, 2], "en-*"))
        #expect(LanguageMatch.matches("en-GB", in: ["en", "en-gb"]) == ([1], "en-gb"))
        #expect(LanguageMatch.matches("ja", in: ["en", nil]).indices.isEmpty)
        #expect(RenditionPolicy("lang:") == nil && RenditionPolicy("name:") == nil && RenditionPolicy("loud") == nil)
        #expect(RenditionPolicy("lang:en,fr")?.choice == .languages(["en", "fr"]))
    }
}
