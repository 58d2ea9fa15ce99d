/// A command-line value of seconds (`--duration 30`, `--outage-limit 0.5`): positive, at most a
/// year.
enum SecondsArgument {
    /// The value after `option`, taken from `rest`.
    static func take(_ option: String, from rest: inout [String]) throws(CommandLineArguments.UsageError) -> Duration {
        guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "\(option) needs a value") }
        let text = rest.removeFirst()
        guard let value = Double(text), value > 0, value <= 31_536_000 else {
            throw CommandLineArguments.UsageError(message: "\(option) needs a positive number of seconds, not \(text)")
        }
        return .milliseconds(Int64(value * 1000))
    }
}
