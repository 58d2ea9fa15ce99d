/// Collects diagnostics from the single-playlist rules.
struct RuleContext {
    var diagnostics: [Diagnostic] = []

    mutating func add(_ id: DiagnosticID, _ severity: Diagnostic.Severity, _ line: SourceLine?, _ section: String,
                      _ message: String) {
        diagnostics.append(Diagnostic(id, severity, line: line?.number, section: section, message))
    }
}
