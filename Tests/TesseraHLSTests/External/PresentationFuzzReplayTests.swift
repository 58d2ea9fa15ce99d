import Foundation
import Testing
import TesseraHLS
import TesseraPlaylist
import TesseraTestSupport

@Suite("Presentation parsers fuzz replay")
struct PresentationFuzzReplayTests {
    static let base = URL(string: "https://cdn.example/vod/master.m3u8")!

    @Test("every saved input keeps the invariants FuzzPresentation checks")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzPresentation")
        #expect(!inputs.isEmpty)
        let steered = try SteeringStateTests.multivariant()
        // As in the fuzz target: rejecting an input is fine (`try?`); an accepted one keeps its invariants.
        for input in inputs where !input.isEmpty {
            let bytes = Array(input.dropFirst())
            switch input[0] % 5 {
            case 0:
                if let manifest = try? SteeringManifest.parse(bytes) { #expect(!manifest.pathwayPriority.isEmpty && manifest.ttl > 0) }
                var state = try SteeringState(multivariant: steered, url: Self.base, steering: steered.contentSteering!)
                _ = state.received(bytes, from: Self.base, at: .seconds(1))
                #expect(state.pathways.contains(state.current))
            case 1:
                if let list = try? AssetList.parse(bytes) { #expect(list.duration >= 0) }
            case 2:
                if let chapters = try? Chapter.parse(bytes, from: Self.base, languages: ["en-US", "fr"]) { #expect(chapters.allSatisfy { $0.start >= 0 }) }
            case 3:
                _ = try? LocalizedRenditionNames.parse(bytes)
            default:
                guard let parsed = try? PlaylistParser().parse(bytes) else { continue }
                if case .multivariant(let playlist) = parsed.playlist {
                    let selection = PresentationSelector.select(SelectionPolicy(), from: playlist)
                    #expect(selection.variant.map { playlist.variants.indices.contains($0) } ?? true)
                } else if case .media(let media) = parsed.playlist {
                    for range in media.dateRanges { _ = Interstitial(range) }
                }
            }
        }
    }
}
