import Foundation
import TesseraSupport

/// `tessera-gates mutations [--fixtures <folder>] [--per-file <n>] [--case <file>#<index>]
/// [--write <file>] [--bound <seconds>] [--plant crash|hang]`: every fixture the readers take (playlists, TS, fMP4, WebVTT; encrypted ones
/// decrypted with their folder's key.bin first) mutated `n` ways (default 500 per text file, 100
/// per media file, by `Mutator`), each mutation through its `MutationTarget`. Passes when every
/// case was accepted or refused with a typed error; fails on a broken invariant, and — through
/// the `Watchdog` — on a case that runs over 10 s. A crash kills the process after `CrashNote`
/// names the case; `--case` with `--write` rebuilds that input to replay it. `--plant` is the
/// gate's self-test: the first case crashes or hangs, and the run must fail saying so.
enum MutationGate {
    struct Options {
        var fixtures = "Fixtures"
        var perTextFile = 500
        var perMediaFile = 100
        var only: (path: String, index: Int)? = nil
        var write: String? = nil
        /// The self-test: the first case traps, or never ends, instead of being checked.
        var plant: String? = nil
        var bound = Duration.seconds(10)
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let options = parse(arguments) else {
            say("usage: tessera-gates mutations [--fixtures <folder>] [--per-file <n>] [--case <file>#<index> [--write <file>]]")
            return 2
        }
        let files = inputs(under: options.fixtures)
        guard !files.isEmpty else {
            say("mutations: FAILED — no fixture under \(options.fixtures) has a kind the readers take")
            return 1
        }
        let watchdog = Watchdog(bound: options.bound)
        CrashNote.install()
        var counts: [MutationTarget: (cases: Int, accepted: Int)] = [:]
        var broken: [String] = []
        for file in files {
            guard let bytes = try? FileDescriptorIO.readRegularFile(file.path, limit: 64 << 20) else {
                say("mutations: FAILED — \(file.path) could not be read")
                return 1
            }
            let cases = file.target.isText ? options.perTextFile : options.perMediaFile
            for index in 0..<cases {
                if let only = options.only, only.path != file.path || only.index != index { continue }
                var mutator = Mutator(name: file.path, index: index)
                let (input, kind) = file.target.isText ? mutator.mutateText(bytes) : mutator.mutateBytes(bytes)
                let label = "\(file.path)#\(index) (\(kind))"
                if let write = options.write {
                    guard FileManager.default.createFile(atPath: write, contents: Data(input)) else { return 1 }
                    say("mutations: wrote \(label) to \(write)")
                }
                if options.only != nil { say("mutations: case \(label)") }
                watchdog.begin(label)
                CrashNote.set(label)
                let outcome = options.plant.map { planted($0) } ?? file.target.check(input, key: file.key)
                watchdog.begin(nil)
                var count = counts[file.target] ?? (0, 0)
                count.cases += 1
                switch outcome {
                case .accepted: count.accepted += 1
                case .refused: break
                case .broken(let what):
                    say("mutations: BROKEN \(label): \(what)")
                    broken.append(label)
                }
                counts[file.target] = count
            }
        }
        let total = counts.values.reduce(0) { $0 + $1.cases }
        let summary = MutationTarget.allCases.compactMap { target in
            counts[target].map { "\(target.rawValue) \($0.cases) (\($0.accepted) accepted, \($0.cases - $0.accepted) refused)" }
        }.joined(separator: "; ")
        guard broken.isEmpty else {
            say("mutations: \(broken.count) of \(total) cases broke an invariant; the first: \(broken[0])")
            return 1
        }
        say("mutations: \(total) cases over \(files.count) files, no crash, no hang, every invariant kept: \(summary)")
        return total > 0 ? 0 : 1
    }

    /// What `--plant` puts in the place of the first check: a trap, or a loop that never ends.
    private static func planted(_ plant: String) -> MutationTarget.Outcome {
        if plant == "crash" { preconditionFailure("mutations: the planted crash") }
        var spins: UInt64 = 0
        while spins != .max { spins = spins &+ UInt64(getpid() & 1) }   // getpid: not foldable, so never ends
        return .accepted
    }

    private struct Input {
        let path: String
        let target: MutationTarget
        let key: [UInt8]?
    }

    /// Every fixture a reader takes, in path order, with its folder's key when it is encrypted.
    private static func inputs(under folder: String) -> [Input] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [Input] = []
        while let relative = enumerator.nextObject() as? String {
            let path = folder + "/" + relative
            guard let target = MutationTarget(fileExtension: (relative as NSString).pathExtension) else { continue }
            let keyPath = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("key.bin")
            let key = target.isText ? nil : try? FileDescriptorIO.readRegularFile(keyPath, limit: 16)   // no key: a clear fixture
            found.append(Input(path: path, target: target, key: key?.count == 16 ? key : nil))
        }
        return found.sorted { $0.path < $1.path }
    }

    private static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard let value = rest.popFirst() else { return nil }
            switch argument {
            case "--fixtures": options.fixtures = value
            case "--per-file":
                guard let n = Int(value), n > 0 else { return nil }
                options.perTextFile = n
                options.perMediaFile = max(1, n / 5)
            case "--case":
                guard let hash = value.lastIndex(of: "#"), let index = Int(value[value.index(after: hash)...]) else { return nil }
                options.only = (String(value[..<hash]), index)
            case "--write": options.write = value
            case "--plant" where value == "crash" || value == "hang": options.plant = value
            case "--bound":
                guard let seconds = Int(value), seconds > 0 else { return nil }
                options.bound = .seconds(seconds)
            default: return nil
            }
        }
        return options
    }
}
