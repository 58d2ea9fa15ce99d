import TesseraHLS

/// What the media jobs (`download`, `package`) say the same way: resume and start-over lines,
/// and the end — the result line on stdout (exit 0), or the one error line (exit 1).
enum JobOutput {
    static func resumed(_ resources: Int, bytes: UInt64) {
        Terminal.line("resuming: \(resources) resources (\(ProgressDisplay.bytes(bytes))) verified from the checkpoint", to: .standardError)
    }

    static func startingOver(_ reason: String) {
        Terminal.line("starting over: \(reason)", to: .standardError)
    }

    /// Prints how the job ended and returns the exit status.
    static func end(_ result: Result<String, HLSError>) -> Int32 {
        switch result {
        case .success(let line):
            Terminal.line(line)
            return 0
        case .failure(let error):
            if Terminal.isInteractive { Terminal.write("\n", to: .standardError) }
            Terminal.error(error.message)
            return 1
        }
    }
}
