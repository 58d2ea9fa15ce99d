/// One GET, returning the body size or -1 on failure.
public protocol GetRunner: Sendable {
    func get() async -> Int
    /// The executor the workers prefer, if any.
    var executor: (any TaskExecutor)? { get }
}

extension GetRunner {
    public var executor: (any TaskExecutor)? { nil }
}

/// Runs `count` GETs, `concurrency` at a time, prints a summary line, and says whether every
/// request succeeded with the same body size.
public func runGets(_ runner: any GetRunner, count: Int, concurrency: Int) async -> Bool {
    let start = ContinuousClock.now
    let sizes = await withTaskGroup(of: [Int].self) { group in
        for worker in 0..<concurrency {
            let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
            group.addTask(executorPreference: runner.executor) {
                var sizes: [Int] = []
                sizes.reserveCapacity(share)
                for _ in 0..<share { sizes.append(await runner.get()) }
                return sizes
            }
        }
        return await group.reduce(into: [Int]()) { $0 += $1 }
    }
    let elapsed = start.duration(to: .now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let failed = sizes.filter { $0 < 0 }.count
    let distinct = Set(sizes.filter { $0 >= 0 })
    print("requests=\(sizes.count) failed=\(failed) sizes=\(distinct.sorted()) seconds=\(seconds)")
    return failed == 0 && distinct.count == 1 && sizes.count == count
}

/// The command line both bench programs take:
/// `gets <url> <count> <concurrency>` or `download <url> <output>`.
public enum BenchCommand {
    case gets(url: String, count: Int, concurrency: Int)
    case download(url: String, output: String)

    public static func parse(_ arguments: [String]) -> BenchCommand? {
        switch arguments.first {
        case "gets" where arguments.count == 4:
            guard let count = Int(arguments[2]), let concurrency = Int(arguments[3]), concurrency > 0 else { return nil }
            return .gets(url: arguments[1], count: count, concurrency: concurrency)
        case "download" where arguments.count == 3:
            return .download(url: arguments[1], output: arguments[2])
        default:
            return nil
        }
    }
}
