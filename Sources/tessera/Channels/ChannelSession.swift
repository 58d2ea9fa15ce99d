#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraSupport

/// A running `tessera record --channels`: the list in use, read again at SIGHUP (a list that does
/// not read, or changes pins the one transport was made with, is refused and the one in use kept),
/// each channel's `--snapshot-every`, SIGUSR1's snapshot of every channel, and the terminal's
/// table redrawn each second.
final class ChannelSession: Sendable {
    private let command: ChannelsCommand
    private let recorder: ChannelRecorder
    private let transport: CurlTransport
    private let output: ChannelOutput
    /// The list in use, and when each channel's next periodic snapshot is due.
    private let state: Mutex<(lineup: ChannelLineup, due: [String: ContinuousClock.Instant])>

    init(command: ChannelsCommand, recorder: ChannelRecorder, transport: CurlTransport, output: ChannelOutput, lineup: ChannelLineup) {
        self.command = command
        self.recorder = recorder
        self.transport = transport
        self.output = output
        state = Mutex((lineup, Self.dues(lineup, previous: [:])))
    }

    /// SIGHUP: the list again.
    func reload() {
        let lineup: ChannelLineup
        do throws(CommandLineArguments.UsageError) { lineup = try ChannelLineup.load(command.list, global: command.global) } catch {
            output.say("channel list not reloaded (the one in use is kept): \(error.message)")
            return
        }
        let old = state.withLock { $0.lineup }
        guard lineup.pins == old.pins else {
            output.say("channel list not reloaded (the one in use is kept): its --pin flags differ from those the process started with; pins are read at start")
            return
        }
        let before = Dictionary(old.lines.map { ($0.name, $0.revision) }, uniquingKeysWith: { first, _ in first })
        let added = lineup.lines.filter { before[$0.name] == nil }.count
        let changed = lineup.lines.filter { line in before[line.name].map { $0 != line.revision } ?? false }.count
        let removed = old.lines.count - (lineup.lines.count - added)
        state.withLock { state in state = (lineup, Self.dues(lineup, previous: state.due)) }
        output.use(lineup)
        output.say("channel list reloaded: \(lineup.lines.count) channels (\(added) new, \(changed) changed, \(removed) removed)")
        recorder.update(lineup.channels(on: transport))
    }

    /// SIGUSR1: a snapshot of every channel recording.
    func snapshotAll() {
        for line in state.withLock({ $0.lineup.lines }) { snapshot(line.name) }
    }

    /// Seconds between two returns of the freed heap to the kernel (`tick`).
    static let heapReturnSeconds = 60

    /// Each second until cancelled: the table, the periodic snapshots due, and each minute the
    /// segment buffers no segment took in that minute let go and the freed heap handed back to
    /// the kernel (then, with `--json`, a `memory` line) — glibc keeps the freed pages of its arenas, and a
    /// hundred channels churning segment bodies through them for days would make the resident
    /// size creep up while what is live stays flat.
    func tick() async {
        let lane = BlockingLane(label: "tessera.channels.heap")
        var seconds = 0
        // The sleep throws only when cancelled: the channels are over.
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            seconds += 1
            if seconds % Self.heapReturnSeconds == 0 {
                let recorder = self.recorder
                let usage = await lane.run {
                    recorder.releaseIdleMemory()
                    HeapPolicy.returnFreedHeap()
                    return (HeapPolicy.usage(), recorder.bufferedBytes)
                }
                output.memory(inUse: usage.0.inUse, resident: usage.0.resident, bodies: usage.1)
            }
            output.tick()
            let now = ContinuousClock.now
            let due = state.withLock { state -> [String] in
                var names: [String] = []
                for line in state.lineup.lines {
                    guard let every = line.flags.snapshotEvery, let next = state.due[line.name], next <= now else { continue }
                    state.due[line.name] = now + every
                    names.append(line.name)
                }
                return names
            }
            for name in due { snapshot(name) }
        }
    }

    private func snapshot(_ name: String) {
        Task {
            // A failed snapshot is the channel's `snapshotFailed` line already; one refused
            // (eight outstanding) or of a channel not recording now is said here.
            do throws(HLSError) { _ = try await recorder.snapshot(name) } catch where error.code == .destinationBusy || error.code == .cancelled {
                output.say("\(name): snapshot not taken: \(error.message)")
            } catch {
                // Said by the channel's own event.
            }
        }
    }

    /// When each channel of `lineup` with `--snapshot-every` is next due (kept for channels it had).
    private static func dues(_ lineup: ChannelLineup, previous: [String: ContinuousClock.Instant]) -> [String: ContinuousClock.Instant] {
        var dues: [String: ContinuousClock.Instant] = [:]
        for line in lineup.lines {
            guard let every = line.flags.snapshotEvery else { continue }
            dues[line.name] = previous[line.name] ?? ContinuousClock.now + every
        }
        return dues
    }
}
