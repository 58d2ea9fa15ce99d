import Foundation
import TesseraPlaylist

/// The benchmark's playlists are written by `tessera-gates generate <folder> <sizes>` (the same
/// ones the scaling gate times). `ParsePlaylists time <file> <reps>` parses one file (read once, outside the timing) REPS times
/// after one warm-up and prints one JSON line: times, bytes, segments, peak RSS. `lines <file> <reps>`
/// times the memchr floor over the same bytes.
@main
enum ParsePlaylists {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3 else {
            FileHandle.standardError.write(Data("usage: ParsePlaylists time <file> <reps> | memory <file>\n".utf8))
            exit(2)
        }
        switch arguments[1] {
        case "time": try time(URL(fileURLWithPath: arguments[2]), reps: Int(arguments[3]) ?? 5)
        case "memory": try memory(path: arguments[2])
        case "json": try json(URL(fileURLWithPath: arguments[2]), reps: Int(arguments[3]) ?? 3)
        case "lines": try lines(URL(fileURLWithPath: arguments[2]), reps: Int(arguments[3]) ?? 9)
        default: exit(2)
        }
    }

    /// One parse, keeping the model: resident size before, after, and the peak in between.
    static func memory(path: String) throws {
        let fd = open(path, O_RDONLY)
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0 else { exit(1) }
        let size = Int(info.st_size)
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = read(fd, buffer.baseAddress, size)
        }
        close(fd)
        let before = residentKilobytes()
        let peakBefore = peakKilobytes()
        let parsed = try PlaylistParser().parse(bytes)
        let after = residentKilobytes()
        let peak = max(peakKilobytes(), peakBefore)
        withExtendedLifetime(parsed) {
            print("{\"bytes\": \(bytes.count), \"rss_before_kb\": \(before), \"rss_after_kb\": \(after), \"peak_kb\": \(peak)}")
        }
    }

    static func residentKilobytes() -> Int {
        // A memory figure of 0 would pass the memory target falsely: without /proc the bench stops.
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
            fatalError("ParsePlaylists: /proc/self/statm is unreadable, so memory cannot be measured")
        }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024 : 0
    }

    static func peakKilobytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    /// Renders the inspect JSON of one parse REPS times; prints the times and the output size.
    static func json(_ file: URL, reps: Int) throws {
        let parsed = try PlaylistParser().parse([UInt8](try Data(contentsOf: file)))
        var times: [Double] = []
        var size = 0
        for _ in 0..<reps {
            let start = ContinuousClock.now
            size = PlaylistJSON.render(parsed).count
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        print("{\"times\": \(times), \"bytes\": \(size)}")
    }

    /// The floor under any parser: finding every line with memchr over the same bytes, in-process
    /// and warm, REPS times after one warm-up; prints the times and the line count.
    static func lines(_ file: URL, reps: Int) throws {
        let bytes = [UInt8](try Data(contentsOf: file))
        func count() -> Int {
            bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                var offset = 0
                var found = 0
                while offset < raw.count, let hit = memchr(base + offset, 0x0A, raw.count - offset) {
                    found += 1
                    offset = base.distance(to: UnsafeRawPointer(hit)) + 1
                }
                return found
            }
        }
        var lines = count()
        var times: [Double] = []
        for _ in 0..<reps {
            let start = ContinuousClock.now
            lines = count()
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        print("{\"times\": \(times), \"bytes\": \(bytes.count), \"items\": \(lines)}")
    }

    static func time(_ file: URL, reps: Int) throws {
        let bytes = [UInt8](try Data(contentsOf: file))
        let parser = PlaylistParser()
        var items = 0
        _ = try parser.parse(bytes)   // warm-up
        var times: [Double] = []
        for _ in 0..<reps {
            let start = ContinuousClock.now
            let parsed = try parser.parse(bytes)
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            switch parsed.playlist {
            case .media(let media): items = media.segments.count
            case .multivariant(let multivariant): items = multivariant.variants.count + multivariant.renditions.count
            }
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("{\"times\": \(times), \"bytes\": \(bytes.count), \"items\": \(items), \"maxrss_kb\": \(usage.ru_maxrss)}")
    }
}
