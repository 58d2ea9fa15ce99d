import TesseraPlaylist

/// Any bytes: the parser must return a playlist or throw `PlaylistError`, never trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaylistParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var limits = PlaylistLimits()
    limits.maximumElements = 10_000
    _ = try? PlaylistParser(limits: limits).parse(bytes)
    return 0
}
