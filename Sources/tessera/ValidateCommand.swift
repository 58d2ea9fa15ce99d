import TesseraMedia

/// `tessera validate <file> [--json]` (CommandHelp.validate): structural validation of an
/// MPEG-TS, MP4 (progressive or fragmented) or WebVTT file. Exit 0 when no error-severity finding, 1 when there is
/// one, the file cannot be read, or it is none of those formats; 2 on usage errors.
struct ValidateCommand: Sendable {
    let path: String
    let json: Bool

    func run() async -> Int32 {
        guard let source = MP4FileSource(path: path) else {
            Terminal.error("Cannot read \(path).")
            return 1
        }
        let result = MediaValidation.validate(source)
        switch result.format {
        case .fragmentedMP4: return report(format: result.isProgressiveMP4 ? "mp4" : "fmp4", bytes: source.size, result)
        case .webVTT: return report(format: "webvtt", bytes: source.size, result)
        case .mpegTS: return report(format: "mpeg-ts", bytes: source.size, result)
        case .packedAudio, nil:
            Terminal.error("\(path) is not a format tessera validates (it knows MPEG-TS, MP4 and WebVTT): "
                           + (source.size == 0 ? "it is empty." : "its first bytes are none of theirs."))
            return 1
        }
    }

    /// Prints the findings (or the JSON document) and returns the exit status.
    private func report(format: String, bytes: UInt64, _ result: MediaValidation.Result) -> Int32 {
        let (findings, suppressed) = (result.findings, result.suppressed)
        let valid = !findings.contains { $0.severity == .error }
        let name = ["fmp4": "fragmented MP4", "mp4": "MP4", "webvtt": "WebVTT"][format] ?? "MPEG-TS"
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
}
