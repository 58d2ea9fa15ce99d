import TesseraPlaylist

/// Any bytes: the parser (with its validator) must return a playlist or throw `PlaylistError`,
/// never trap or hang; whatever parses must also write, and the written text must parse again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylistParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = PlaylistLimits()
    limits.maximumElements = 10_000
    let parser = PlaylistParser(limits: limits)
    let context = ParseContext(importableVariables: ["a": "1", "b": "{$a}"])
    // A typed rejection is a correct outcome for arbitrary bytes; only a crash or hang is a bug.
    guard let parsed = try? parser.parse(bytes, context: context) else { return 0 }
    let written = PlaylistWriter().write(parsed.playlist)
    // Re-parsing the written text exercises the writer and parser together; the equality of the
    // two models is asserted by the round-trip and mutation tests, which replay this corpus.
    _ = try? parser.parse(Array(written.utf8), context: context)
    return 0
}
