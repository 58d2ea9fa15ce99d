import Foundation
import TesseraHLS
import TesseraPlaylist

/// The presentation-level parsers fed hostile bytes: the first byte picks one, the rest is its
/// input. Each accepts or rejects with a typed error; what it accepts keeps its invariants.
/// Rejection is the expected outcome for most inputs, so errors are dropped with `try?`; a crash
/// or a broken invariant (`precondition`) is what the fuzzer looks for.
let base = URL(string: "https://cdn.example/vod/master.m3u8")!
let steered: MultivariantPlaylist = {
    let text = """
    #EXTM3U
    #EXT-X-VERSION:6
    #EXT-X-CONTENT-STEERING:SERVER-URI="steer.json",PATHWAY-ID="A"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",STABLE-RENDITION-ID="en",URI="a/en.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="aud",PATHWAY-ID="A",STABLE-VARIANT-ID="hd"
    a/hd.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="aud",PATHWAY-ID="B",STABLE-VARIANT-ID="hd"
    https://cdn-b.example/hd.m3u8
    """
    // The fixed fixture above parses; if it ever does not, the target must stop at once.
    guard case .multivariant(let playlist)? = try? PlaylistParser().parse(Array(text.utf8)).playlist else { fatalError("fixture") }
    return playlist
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPresentation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 5 {
    case 0:
        if let manifest = try? SteeringManifest.parse(bytes) {
            precondition(!manifest.pathwayPriority.isEmpty && manifest.ttl > 0, "an accepted manifest breaks its rules")
        }
        // The fixture's SERVER-URI resolves against an https base: a failure here is a broken fixture.
        guard var state = try? SteeringState(multivariant: steered, url: base, steering: steered.contentSteering!) else { fatalError("state") }
        _ = state.received(bytes, from: base, at: .seconds(1))
        precondition(state.pathways.contains(state.current), "the current pathway has no variants")
    case 1:
        if let list = try? AssetList.parse(bytes) { precondition(list.duration >= 0 && list.assets.allSatisfy { $0.uri.contains("://") }) }
    case 2:
        if let chapters = try? Chapter.parse(bytes, from: base, languages: ["en-US", "fr"]) {
            precondition(chapters.allSatisfy { $0.start >= 0 }, "a negative chapter start")
        }
    case 3:
        _ = try? LocalizedRenditionNames.parse(bytes)
    default:
        guard let parsed = try? PlaylistParser().parse(bytes) else { return 0 }
        switch parsed.playlist {
        case .multivariant(let playlist):
            let selection = PresentationSelector.select(SelectionPolicy(), from: playlist)
            precondition(selection.variant.map { playlist.variants.indices.contains($0) } ?? true, "a variant out of range")
            precondition((selection.audio + selection.subtitles).allSatisfy { playlist.renditions.indices.contains($0) }, "a rendition out of range")
        case .media(let media):
            for range in media.dateRanges { _ = Interstitial(range) }
        }
    }
    return 0
}
