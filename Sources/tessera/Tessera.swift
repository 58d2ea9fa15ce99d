#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `tessera` command: a thin composition root over the library.
/// Exit status: 0 success, 1 failure (one-line error on stderr), 2 usage error.
@main
enum Tessera {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status: Int32
        do {
            let command = try CommandLineArguments.parse(arguments)
            status = await command.run()
        } catch {
            Terminal.error(error.message)
            Terminal.line(CommandLineArguments.usage, to: .standardError)
            status = 2
        }
        exit(status)
    }
}
