import TesseraPlaylist

/// Any bytes: the parser (with its validator) must return a playlist or throw `PlaylistError`,
/// never trap or hang; the same bytes read in pieces (sizes drawn from the input) must give the
/// same outcome (segment line numbers included, which model equality leaves out: pieces of a few
/// bytes take the parser's general path where the whole document takes the common segment's);
/// whatever parses must also write, and the written text must parse again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylistParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = PlaylistLimits()
    limits.maximumElements = 10_000
    let parser = PlaylistParser(limits: limits)
    let context = ParseContext(importableVariables: ["a": "1", "b": "{$a}"])
    let whole = Result { () throws(PlaylistError) in try parser.parse(bytes, context: context) }
    var offset = 0, turn = 0
    let pieces = Result { () throws(PlaylistError) in
        try parser.parse(context: context) { buffer in
            guard offset < bytes.count else { return false }
            let size = min(1 + Int(bytes[turn % bytes.count] & 0x3F), bytes.count - offset)
            turn += 1
            buffer += bytes[offset..<offset + size]
            offset += size
            return true
        }
    }
    switch (whole, pieces) {
    case (.success(let a), .success(let b)) where a == b && segmentLines(a) == segmentLines(b): break
    case (.failure(let a), .failure(let b)) where a.code == b.code && a.line == b.line
                                                && (a.message == b.message || a.code == .limitExceeded): break
    default: fatalError("the document read in pieces gave another outcome than read whole")
    }
    // A typed rejection is a correct outcome for arbitrary bytes; only a crash or hang is a bug.
    guard case .success(let parsed) = whole else { return 0 }
    let written = PlaylistWriter().write(parsed.playlist)
    // Re-parsing the written text exercises the writer and parser together; the equality of the
    // two models is asserted by the round-trip and mutation tests, which replay this corpus.
    _ = try? parser.parse(Array(written.utf8), context: context)
    return 0
}

/// The line of every segment's URI (none for a multivariant playlist).
func segmentLines(_ parsed: ParsedPlaylist) -> [Int] {
    guard case .media(let media) = parsed.playlist else { return [] }
    return media.segments.map(\.line.number)
}
