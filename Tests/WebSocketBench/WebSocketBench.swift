import Foundation
import TesseraHTTP
import TesseraTestSupport

/// `tessera-ws-bench <ws-URL> [--small N] [--large N] [--large-bytes B]`: WebSocket echo round
/// trips for the benchmark — N sequential round trips of a 32-byte text message, then N of a
/// binary message of B bytes (default 1 MiB), each answered before the next is sent. Prints one
/// line per kind: `<kind> <count> <seconds>`; exit 1 when an echo differs or the socket ends.
/// `tessera-ws-bench --serve` is the other peer: the test support's echo server (a thread per
/// connection, blocking sockets, the house's frame reader in the server role), its port printed.
@main
struct WebSocketBench {
    static func main() async throws {
        var arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "--serve" {
            let server = try WebSocketTestServer.echo()
            FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
        guard let target = arguments.popFirst(), let url = URL(string: target) else { usage() }
        var small = 20_000, large = 100, largeBytes = 1 << 20
        while let flag = arguments.popFirst() {
            guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { usage() }
            switch flag {
            case "--small": small = value
            case "--large": large = value
            case "--large-bytes": largeBytes = value
            default: usage()
            }
        }
        var configuration = WebSocketConfiguration()
        configuration.allowsPlainText = true
        configuration.heartbeat = nil
        var transport = CurlTransport.Configuration()
        transport.proxy = .none
        let task = try WebSocketClient(configuration: configuration, transport: transport).task(url)
        // The consumer on the connection's own thread: each echo read and the next message
        // written there, no thread crossed per round trip (docs/WEBSOCKET.md).
        try await withTaskExecutorPreference(task.executor) {
            var events = task.events.makeAsyncIterator()
            task.start()
            while let event = await events.next() {
                if event == .state(.open) { break }
                if case .closed(let close) = event { fail("did not open: \(close)") }
            }
            func roundTrips(_ kind: String, _ count: Int, _ message: WebSocketMessage,
                            _ events: inout WebSocketEvents.AsyncIterator) async throws {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<count {
                    try await task.send(message)
                    while true {
                        guard let event = await events.next() else { fail("the socket ended") }
                        if case .message(let echo) = event {
                            guard echo == message else { fail("an echo differs") }
                            break
                        }
                        if case .closed(let close) = event { fail("closed: \(close)") }
                    }
                }
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                print("\(kind) \(count) \(String(format: "%.4f", seconds))")
            }
            try await roundTrips("rt-small", small, .text(String(repeating: "x", count: 32)), &events)
            try await roundTrips("rt-large", large, .binary(Data((0..<largeBytes).map { UInt8(truncatingIfNeeded: $0 &* 131) })), &events)
            task.close()
            while let event = await events.next() { if case .closed = event { break } }
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(Data("usage: tessera-ws-bench <ws-URL> [--small N] [--large N] [--large-bytes B] | --serve\n".utf8))
        exit(2)
    }

    static func fail(_ why: String) -> Never {
        FileHandle.standardError.write(Data("tessera-ws-bench: \(why)\n".utf8))
        exit(1)
    }
}
