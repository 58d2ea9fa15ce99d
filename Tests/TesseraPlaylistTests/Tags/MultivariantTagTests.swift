import Testing
import TesseraPlaylist

@Suite("Multivariant playlist tags")
struct MultivariantTagTests {
    static let text = """
    #EXTM3U
    #EXT-X-VERSION:12
    #EXT-X-INDEPENDENT-SEGMENTS
    #EXT-X-CONTENT-STEERING:SERVER-URI="https://steer.example/m.json",PATHWAY-ID="CDN-A"
    #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Film",LANGUAGE="en"
    #EXT-X-SESSION-DATA:DATA-ID="com.example.chapters",URI="chapters.json",FORMAT=RAW
    #EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://keys/k1",IV=0x00000000000000000000000000000001
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",ASSOC-LANGUAGE="en-GB",DEFAULT=YES,AUTOSELECT=YES,URI="a/en.m3u8",CHANNELS="6/-/BINAURAL",BIT-DEPTH=24,SAMPLE-RATE=48000,STABLE-RENDITION-ID="en-6ch",CHARACTERISTICS="public.accessibility.describes-video"
    #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English SDH",FORCED=YES,URI="s/en.m3u8"
    #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
    #EXT-X-STREAM-INF:BANDWIDTH=5000000,AVERAGE-BANDWIDTH=4000000,SCORE=9.5,CODECS="hvc1.2.4.L153.b0,ec-3",SUPPLEMENTAL-CODECS="dvh1.08.07/db4h",RESOLUTION=3840x2160,FRAME-RATE=59.940,HDCP-LEVEL=TYPE-1,ALLOWED-CPC="com.example.drm:HW",VIDEO-RANGE=PQ,REQ-VIDEO-LAYOUT="CH-STEREO",STABLE-VARIANT-ID="uhd",AUDIO="aac",SUBTITLES="subs",CLOSED-CAPTIONS="cc",PATHWAY-ID="CDN-A"
    uhd/index.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=800000,CLOSED-CAPTIONS=NONE,X-FUTURE="kept"
    sd/index.m3u8
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=300000,URI="uhd/iframes.m3u8",RESOLUTION=3840x2160,VIDEO-RANGE=PQ
    """

    @Test("variants carry every 2nd-edition attribute (§4.4.6.2)")
    func variants() throws {
        let playlist = try Parse.multivariant(Self.text)
        let uhd = playlist.variants[0]
        #expect(uhd.uri == "uhd/index.m3u8" && uhd.bandwidth == 5_000_000 && uhd.averageBandwidth == 4_000_000)
        #expect(uhd.score == 9.5 && uhd.codecs == "hvc1.2.4.L153.b0,ec-3" && uhd.supplementalCodecs == "dvh1.08.07/db4h")
        #expect(uhd.resolution == Resolution(width: 3840, height: 2160) && uhd.frameRate == 59.94)
        #expect(uhd.hdcpLevel == .type1 && uhd.videoRange == .pq && uhd.allowedCPC == "com.example.drm:HW")
        #expect(uhd.requiredVideoLayout == "CH-STEREO" && uhd.stableVariantId == "uhd" && uhd.pathwayId == "CDN-A")
        #expect(uhd.audio == "aac" && uhd.subtitles == "subs" && uhd.closedCaptions == .group("cc"))
        #expect(playlist.variants[1].closedCaptions == Variant.ClosedCaptions.none)
        #expect(playlist.variants[1].unknownAttributes == [UnknownAttribute(name: "X-FUTURE", rawValue: "\"kept\"")])
    }

    @Test("I-frame variants take their URI from the URI attribute (§4.4.6.3)")
    func iFrameVariants() throws {
        let variant = try #require(try Parse.multivariant(Self.text).iFrameVariants.first)
        #expect(variant.uri == "uhd/iframes.m3u8" && variant.bandwidth == 300_000 && variant.frameRate == nil)
    }

    @Test("renditions carry every attribute (§4.4.6.1)")
    func renditions() throws {
        let renditions = try Parse.multivariant(Self.text).renditions
        let audio = renditions[0]
        #expect(audio.type == .audio && audio.groupId == "aac" && audio.name == "English" && audio.language == "en")
        #expect(audio.associatedLanguage == "en-GB" && audio.isDefault && audio.isAutoselect && !audio.isForced)
        #expect(audio.channels == "6/-/BINAURAL" && audio.bitDepth == 24 && audio.sampleRate == 48000)
        #expect(audio.stableRenditionId == "en-6ch" && audio.characteristics == "public.accessibility.describes-video")
        #expect(renditions[1].isForced && renditions[1].type == .subtitles)
        #expect(renditions[2].type == .closedCaptions && renditions[2].instreamId == "CC1" && renditions[2].uri == nil)
    }

    @Test("session data, session keys and content steering are read (§4.4.6.4-6)")
    func sessionAndSteering() throws {
        let playlist = try Parse.multivariant(Self.text)
        #expect(playlist.sessionData.map(\.dataId) == ["com.example.title", "com.example.chapters"])
        #expect(playlist.sessionData[0].value == "Film" && playlist.sessionData[1].format == .raw)
        #expect(playlist.sessionKeys.first?.iv?.last == 1)
        #expect(playlist.contentSteering?.serverURI == "https://steer.example/m.json")
        #expect(playlist.contentSteering?.pathwayId == "CDN-A")
        #expect(playlist.hasIndependentSegments && playlist.version == 12)
    }

    @Test("a STREAM-INF without BANDWIDTH or with an unknown VIDEO-RANGE is ignored, with its URI")
    func ignoredVariants() throws {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"x\"\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1,VIDEO-RANGE=XDR\nb.m3u8\n"
        #expect(try Parse.multivariant(text).variants.isEmpty)
        #expect(try Parse.ids(text) == [.missingAttribute, .uriWithoutStreamInf, .unknownEnumeratedValue, .uriWithoutStreamInf])
    }

    @Test("a STREAM-INF with no URI line after it is reported")
    func streamInfWithoutURI() throws {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n"
        #expect(try Parse.result(text).diagnostics.filter { $0.severity == .error }.map(\.id) == [.variantWithoutURI])
    }
}
