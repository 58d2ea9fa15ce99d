/// The arguments every fetching command (`download`, `package`, `watch`, `record`) walks the
/// same way: network and selection options are taken here, the command's own options by its
/// `own` closure (false for one it does not know), anything else not starting with `-` is a
/// positional argument, and the rest is an unknown option.
struct FetchingArguments {
    var network = NetworkOptions()
    var selection: SelectionOptions
    var positional: [String] = []

    /// Walks `arguments`; `own` gets each argument the shared options do not take, with the
    /// arguments after it (to take its value from).
    static func parse(_ arguments: [String], takesRenditions: Bool,
                      own: (String, inout [String]) throws(CommandLineArguments.UsageError) -> Bool) throws(CommandLineArguments.UsageError) -> FetchingArguments {
        try parse(arguments, starting: FetchingArguments(selection: SelectionOptions(takesRenditions: takesRenditions)), own: own)
    }

    /// Walks `arguments` as above, their options set over `start`'s.
    static func parse(_ arguments: [String], starting start: FetchingArguments,
                      own: (String, inout [String]) throws(CommandLineArguments.UsageError) -> Bool) throws(CommandLineArguments.UsageError) -> FetchingArguments {
        var parsed = start
        var rest = arguments
        while !rest.isEmpty {
            let argument = rest.removeFirst()
            if try parsed.network.parse(argument, &rest) { continue }
            if try parsed.selection.parse(argument, &rest) { continue }
            if try own(argument, &rest) { continue }
            guard !argument.hasPrefix("-") else { throw CommandLineArguments.UsageError(message: "unknown option \(argument)") }
            parsed.positional.append(argument)
        }
        return parsed
    }

    /// The value after `option`.
    static func value(of option: String, _ rest: inout [String]) throws(CommandLineArguments.UsageError) -> String {
        guard !rest.isEmpty else { throw CommandLineArguments.UsageError(message: "\(option) needs a value") }
        return rest.removeFirst()
    }

    /// `--parallel N`: requests in flight, 1–32.
    static func parallelism(_ option: String, _ rest: inout [String]) throws(CommandLineArguments.UsageError) -> Int {
        let text = try value(of: option, &rest)
        guard let count = Int(text), (1...32).contains(count) else {
            throw CommandLineArguments.UsageError(message: "\(option) needs a number from 1 to 32, not \(text)")
        }
        return count
    }
}
