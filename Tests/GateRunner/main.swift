import Foundation

// tessera-gates: the quality gates that run inside one process, for
// Scripts/run_hls_quality_gates.sh (docs/QUALITY-GATES.md), and the benchmark's playlist writer.
//   tessera-gates generate <folder> <sizes>     the parse benchmark's playlists (sizes: 1000,10000,…)
//   tessera-gates scaling [--only …] [--plant-quadratic]
//   tessera-gates mutations [--fixtures <folder>] [--per-file <n>] [--save <folder>]
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "generate" where arguments.count == 3:
    do {
        try PlaylistGenerator.write(into: URL(fileURLWithPath: arguments[1]), sizes: arguments[2].split(separator: ",").compactMap { Int($0) })
    } catch {
        say("generate: \(error)")
        exit(1)
    }
case "scaling":
    exit(await ScalingGate.run(Array(arguments.dropFirst())))
case "mutations":
    exit(MutationGate.run(Array(arguments.dropFirst())))
default:
    say("usage: tessera-gates generate <folder> <sizes> | scaling [options] | mutations [options]")
    exit(2)
}
