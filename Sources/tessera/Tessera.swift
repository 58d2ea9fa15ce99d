#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// The `tessera` command: a thin composition root over the library.
/// Exit status: 0 success, 1 failure (one-line error on stderr), 2 usage error.
@main
enum Tessera {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Media jobs free and make buffers of megabytes per segment (bodies, demuxed samples)
        // from several threads: reused from two heaps rather than mapped and faulted in afresh.
        // Set before any other thread allocates.
        if arguments.first == "download" || arguments.first == "package" { HeapPolicy.reuseLargeBuffers() }
        // A fetch streams body chunks made on the transfer thread and freed on the writer's: one
        // heap, not one a thread each holding its own high-water mark of freed chunks (a 1 GiB
        // fetch peaked 4.5 MiB lower).
        if arguments.first == "fetch" { HeapPolicy.reuseLargeBuffers(keeping: 1 << 20) }
        // A recorder runs for days: its bodies mapped and unmapped, its resident size the live heap.
        if arguments.first == "record" { HeapPolicy.handBackLargeBuffers() }
        let status: Int32
        do {
            let command = try CommandLineArguments.parse(arguments)
            status = await command.run()
        } catch {
            Terminal.error(error.message)
            // A known command's own synopsis and where its help is; every command's otherwise.
            if let verb = arguments.first, let help = CommandHelp.all[verb] {
                Terminal.line("usage: \(help.synopsis)\n(tessera help \(verb) says what each option does)", to: .standardError)
            } else {
                Terminal.line(CommandLineArguments.usage, to: .standardError)
            }
            status = 2
        }
        exit(status)
    }
}
