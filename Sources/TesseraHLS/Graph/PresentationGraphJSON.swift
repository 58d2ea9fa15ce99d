#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// A presentation as JSON, the `tessera graph --json` contract (docs/CLI.md), written as the
/// children arrive so a presentation of any size streams through bounded memory:
/// `{"multivariant", "playlists", "selection", "steering", "diagnostics"}`. Call `begin`, then
/// `playlist` for each child in order, then `end`.
public final class PresentationGraphJSON {
    private var writer: JSONWriter

    /// A writer that hands chunks of at most about 1 MiB to `sink` (each valid only during the call).
    public init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        writer = JSONWriter(sink: sink)
    }

    /// Opens the document with the multivariant playlist (as `inspect --json`).
    public func begin(_ root: PresentationRoot) {
        writer.beginObject()
        writer.key("multivariant"); PlaylistJSON.object(root.parsed, &writer)
        writer.key("playlists"); writer.beginArray()
    }

    /// One child: its URI as written (like every URI of the `inspect --json` model), its resolved
    /// URL redacted, its role, group and pathway, and its playlist (as `inspect --json`) or its
    /// error.
    public func playlist(_ playlist: GraphPlaylist, parsed: ParsedPlaylist?) {
        writer.item(); writer.beginObject()
        writer.key("uri"); writer.string(playlist.uri)
        writer.key("url"); writer.string(playlist.url.map { URLRedaction.redact($0) })
        writer.key("role"); writer.string(playlist.role.description)
        writer.key("groupId"); writer.string(playlist.groupId)
        writer.key("pathwayId"); writer.string(playlist.pathwayId)
        writer.key("references"); PlaylistJSON.array(playlist.references, &writer) { reference, w in
            w.beginObject()
            w.key("role"); w.string(reference.role.description)
            w.key("groupId"); w.string(reference.groupId)
            w.key("pathwayId"); w.string(reference.pathwayId)
            w.key("line"); w.integer(UInt64(reference.line))
            w.endObject()
        }
        switch playlist.outcome {
        case .loaded:
            writer.key("playlist")
            if let parsed { PlaylistJSON.object(parsed, &writer) } else { writer.null() }
            writer.key("error"); writer.null()
        case .failed(let error):
            writer.key("playlist"); writer.null()
            writer.key("error"); writer.beginObject()
            writer.key("code"); writer.string(error.code.rawValue)
            writer.key("message"); writer.string(error.message)
            writer.endObject()
        }
        writer.endObject()
    }

    /// Closes the document with the selection (indices into the multivariant playlist's
    /// `variants`, `renditions` and `iFrameVariants`), steering and every diagnostic, and a line feed.
    public func end(_ graph: PresentationGraph, selection: PresentationSelection? = nil) {
        writer.endArray()
        writer.key("selection")
        if let selection {
            writer.beginObject()
            writer.key("pathway"); writer.string(selection.pathway)
            writer.key("variant"); writer.integer(selection.variant.map { UInt64($0) })
            writer.key("playlist"); writer.integer(selection.variant.flatMap { graph.playlistIndex(role: .variant, index: $0) }.map { UInt64($0) })
            for (name, indices) in [("audio", selection.audio), ("subtitles", selection.subtitles), ("video", selection.video), ("iFrameVariants", selection.iFrameVariants)] {
                writer.dynamicKey(name); PlaylistJSON.array(indices, &writer) { index, w in w.integer(UInt64(index)) }
            }
            writer.key("reasons"); PlaylistJSON.array(selection.reasons, &writer) { reason, w in w.string(reason) }
            writer.key("refused"); PlaylistJSON.array(selection.refusals, &writer) { refusal, w in
                w.beginObject()
                w.key("variant"); w.integer(UInt64(refusal.variant))
                w.key("reason"); w.string(refusal.reason)
                w.endObject()
            }
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("steering")
        if let steering = graph.multivariant.contentSteering {
            writer.beginObject()
            writer.key("serverUri"); writer.string(URLRedaction.redact(uri: steering.serverURI))
            writer.key("pathways"); PlaylistJSON.array(graph.pathways, &writer) { id, w in w.string(id) }
            writer.key("current"); writer.string(steering.pathwayId ?? ".")
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("diagnostics"); PlaylistJSON.array(graph.diagnostics, &writer) { d, w in
            w.beginObject()
            w.key("severity"); w.string(d.severity.description)
            w.key("code"); w.string(d.id.rawValue)
            w.key("playlist"); Self.index(d.source, &w)
            w.key("line"); w.integer(d.line.map { UInt64($0) })
            w.key("section"); w.string(d.section)
            w.key("message"); w.string(d.message)
            w.key("related"); PlaylistJSON.array(d.related, &w) { place, w in
                w.beginObject()
                w.key("playlist"); Self.index(place.source, &w)
                w.key("line"); w.integer(place.line.map { UInt64($0) })
                w.endObject()
            }
            w.endObject()
        }
        writer.endObject()
        writer.lineFeed()
        writer.finish()
    }

    private static func index(_ source: Diagnostic.Source?, _ w: inout JSONWriter) {
        if case .index(let index)? = source { w.integer(UInt64(index)) } else { w.null() }
    }
}
