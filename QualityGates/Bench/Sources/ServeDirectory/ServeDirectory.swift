import Foundation
import TesseraPlayback

/// `ServeDirectory <folder> <port> [threads]`: serves a folder on 127.0.0.1 with Tessera's
/// loopback server until SIGTERM or SIGINT, for side-by-side runs against nginx.
@main
enum ServeDirectory {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let port = UInt16(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: ServeDirectory <folder> <port> [threads]\n".utf8))
            exit(2)
        }
        var configuration = LoopbackServer.Configuration()
        configuration.port = port
        configuration.threadCount = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
        let server = try LoopbackServer(configuration: configuration,
                                        responder: DirectoryResponder(directory: URL(fileURLWithPath: arguments[1])))
        print("serving \(arguments[1]) at \(server.baseURL)")
        let task = Task { await server.run() }
        let signals = [SIGTERM, SIGINT].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
        await task.value
        signals.forEach { $0.cancel() }
    }
}
