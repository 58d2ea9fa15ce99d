import TesseraMedia

/// The one per-resource media check of the jobs that keep resources as files (packages,
/// recordings) and of `verify-package --media`: the bytes validated as `tessera validate` does
/// (`MediaValidation`: MPEG-TS, fMP4, WebVTT by what they announce), the first error-severity
/// finding the reason they are not valid media — a segment cut short (a partial TS packet, an
/// `mdat` past the end), or one that never was media of its kind.
package enum ResourceMediaCheck {
    /// Why the bytes of `source` are not valid media, or nil: the format and the first error
    /// ("MPEG-TS: error ts-partial-packet at packet 173, byte 32524: …").
    /// - Complexity: O(size).
    package static func problem(_ source: some MP4ByteSource) -> String? {
        let result = MediaValidation.validate(source)
        guard let format = result.format, let error = result.firstError else { return nil }
        return "\(name(format)): \(error)"
    }

    /// Why `body` is not valid media, or nil.
    /// - Throws: `destination-unwritable` when a spilled body cannot be read back.
    package static func problem(_ body: ResourceBody) throws(HLSError) -> String? {
        switch body {
        case .memory(let bytes, _): return problem(MP4MemorySource(bytes))
        case .spilled(let file):
            guard let source = MP4FileSource(path: file.path) else {
                throw HLSError(.destinationUnwritable, "The spill file \(file.path) could not be read back.")
            }
            return problem(source)
        }
    }

    /// "MPEG-TS", "fragmented MP4", "WebVTT".
    static func name(_ format: MediaFormat) -> String {
        switch format {
        case .mpegTS: "MPEG-TS"
        case .fragmentedMP4: "fragmented MP4"
        case .webVTT: "WebVTT"
        case .packedAudio: "packed audio"
        }
    }
}
