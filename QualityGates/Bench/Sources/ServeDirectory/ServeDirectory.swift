import Foundation
import TesseraPlayback

/// `ServeDirectory <folder> <port> [threads]`: serves a folder on 127.0.0.1 with Tessera's
/// loopback server until killed, for side-by-side runs against nginx (Scripts/bench.sh).
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
        await server.run()
    }
}
