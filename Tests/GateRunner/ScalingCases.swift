import Foundation
import TesseraHLS
import TesseraHTTPTesting
import TesseraLive
import TesseraPlaylist

/// What the scaling gate times: every playlist shape the parser reads, the presentation graph
/// (by segments and by variants), package planning and the live delta merge.
enum ScalingCases {
    static let all: [ScalingCase] = parse + [multivariant, graphSegments, graphVariants, packagePlan, liveMerge]

    static let parse: [ScalingCase] = ["plain", "pdt", "byterange", "key"].map { variant in
        ScalingCase("parse-\(variant)") { n in
            let bytes = Array(PlaylistGenerator.media(segments: n, variant: variant).utf8)
            return { try media(bytes).segments.count }
        }
    }

    static let multivariant = ScalingCase("parse-multivariant", unit: "variants", small: 1_000, large: 10_000) { n in
        let bytes = Array(PlaylistGenerator.multivariant(variants: n).utf8)
        return {
            guard case .multivariant(let playlist) = try PlaylistParser().parse(bytes).playlist else { throw ScalingSetupError(description: "not multivariant") }
            return playlist.variants.count
        }
    }

    /// A presentation of two variants and two audio renditions of n segments each: the loader
    /// fetches and parses the four, then checks them against each other (authoring rules too).
    static let graphSegments = ScalingCase("graph-segments") { n in
        let origin = Origin(presentation: n)
        var options = PresentationGraphLoader.Options()
        options.authoring = true
        let loader = PresentationGraphLoader(client: HLSClient(transport: origin.transport), options: options)
        return { try await loadedSegments(loader.load(origin.master)) }
    }

    /// A multivariant playlist of n variants (each its own 3-segment playlist) and 50 renditions.
    static let graphVariants = ScalingCase("graph-variants", unit: "variants", small: 500, large: 5_000) { n in
        let origin = Origin(variants: n)
        var options = PresentationGraphLoader.Options()
        options.authoring = true
        options.maximumPlaylists = 10_000
        let loader = PresentationGraphLoader(client: HLSClient(transport: origin.transport), options: options)
        return { try await loader.load(origin.master).playlists.count }
    }

    /// Planning an offline package of an n-segment variant (the best of two).
    static let packagePlan = ScalingCase("package-plan") { n in
        let origin = Origin(presentation: n, audio: false)
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-scaling-\(getpid())/package")
        let job = PackageDownload(url: origin.master, destination: destination, client: HLSClient(transport: origin.transport))
        return { try await job.plan().resources }
    }

    /// A delta update merged into a held EVENT playlist of n segments (a Date Range and a key
    /// every 100 segments, a tenth of the Date Ranges removed).
    static let liveMerge = ScalingCase("live-merge") { n in
        let held = try media(Array(PlaylistGenerator.event(segments: n).utf8))
        let delta = try media(Array(PlaylistGenerator.delta(segments: n).utf8))
        return {
            switch DeltaMerge.merge(delta, into: held) {
            case .success(let merged): return merged.segments.count
            case .failure(let refusal): throw ScalingSetupError(description: "the delta was refused: \(refusal.reason)")
            }
        }
    }

    /// Not a verdict: a linear pass that does what a planner does per item — a dictionary and a
    /// set of n short distinct names, each inserted once and looked up once — whose ratio shows
    /// what this machine's memory alone does to linear work over tables that outgrow its caches.
    static let reference = ScalingCase("reference-tables", unit: "names") { n in
        let names = (0..<n).map { "seg_\(String(1_000_000_000 + $0).dropFirst(3)).ts" }
        return {
            var indices: [String: Int] = [:], seen = Set<String>()
            indices.reserveCapacity(n)
            seen.reserveCapacity(n)
            for (index, name) in names.enumerated() {
                indices[name] = index
                seen.insert(name)
            }
            return names.reduce(0) { $0 + (indices[$1] == nil ? 0 : 1) } + seen.count - n
        }
    }

    static func media(_ bytes: [UInt8]) throws -> MediaPlaylist {
        guard case .media(let media) = try PlaylistParser().parse(bytes).playlist else { throw ScalingSetupError(description: "not a media playlist") }
        return media
    }

    /// Segments in every loaded playlist of `graph`; a playlist that failed fails the case.
    private static func loadedSegments(_ graph: PresentationGraph) throws -> Int {
        try graph.playlists.reduce(0) { total, playlist in
            guard case .loaded(let facts) = playlist.outcome else { throw ScalingSetupError(description: "\(playlist.uri) did not load") }
            return total + facts.segmentCount
        }
    }
}
