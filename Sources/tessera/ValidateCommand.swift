import TesseraMedia

/// `tessera validate <file> [--json]` (CommandHelp.validate): structural validation of an
/// MPEG-TS, fragmented MP4 or WebVTT file. Exit 0 when no error-severity finding, 1 when there is
/// one, the file cannot be read, or it is none of those formats; 2 on usage errors.
struct ValidateCommand: Sendable {
    let path: String
    let json: Bool

    /// Bytes read per chunk.
    static let chunkBytes = 1 << 20

    func run() async -> Int32 {
        guard let source = MP4FileSource(path: path) else {
            Terminal.error("Cannot read \(path).")
            return 1
        }
        let head = source.read(at: 0, count: 2 * TSPacket.size)
        // A transport stream is taken on its first sync byte: the validator says what follows.
        let format = MediaFormat.detect(head) ?? (head.first == TSPacket.syncByte ? .mpegTS : nil)
        if format == .fragmentedMP4 {
            var validator = MP4Validator()
            let findings = validator.validate(source)
            return report(format: "fmp4", bytes: source.size, findings: findings, suppressed: validator.suppressed)
        }
        if format == .webVTT {
            guard source.size <= Self.maximumWebVTTBytes else {
                Terminal.error("\(path) is a WebVTT file over \(Self.maximumWebVTTBytes >> 20) MiB; segments are small.")
                return 1
            }
            var validator = WebVTTValidator()
            let findings = validator.validate(source.read(at: 0, count: Int(source.size)))
            return report(format: "webvtt", bytes: source.size, findings: findings, suppressed: validator.suppressed)
        }
        guard format == .mpegTS else {
            Terminal.error("\(path) is not a format tessera validates (it knows MPEG-TS, fragmented MP4 and WebVTT): "
                           + (head.isEmpty ? "it is empty." : "its first bytes are none of theirs."))
            return 1
        }
        var validator = TSValidator()
        var offset: UInt64 = 0
        while offset < source.size {
            let chunk = source.read(at: offset, count: Self.chunkBytes)
            guard !chunk.isEmpty else {
                Terminal.error("Reading \(path) failed at byte \(offset).")
                return 1
            }
            validator.consume(chunk)
            offset += UInt64(chunk.count)
        }
        return report(format: "mpeg-ts", bytes: offset, findings: validator.finish(), suppressed: validator.suppressed)
    }

    /// Prints the findings (or the JSON document) and returns the exit status.
    private func report(format: String, bytes: UInt64, findings: [MediaFinding], suppressed: [String: Int]) -> Int32 {
        let valid = !findings.contains { $0.severity == .error }
        let name = ["fmp4": "fragmented MP4", "webvtt": "WebVTT"][format] ?? "MPEG-TS"
        if json {
            Terminal.line(ValidationReport(format: format, path: path, bytes: bytes, findings: findings,
                                           suppressed: suppressed, valid: valid).json)
        } else {
            for finding in findings { Terminal.line(finding.description) }
            for (id, count) in suppressed.sorted(by: { $0.key < $1.key }) {
                Terminal.line("(\(count) more \(id) findings not shown)")
            }
            Terminal.line(valid ? "\(path): valid \(name) (\(findings.count) non-error findings)"
                                : "\(path): invalid \(name) (\(findings.filter { $0.severity == .error }.count) errors)")
        }
        return valid ? 0 : 1
    }

    /// The largest WebVTT file validated (read whole).
    static let maximumWebVTTBytes: UInt64 = 16 << 20
}
