#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlaylist
import TesseraSupport

/// `tessera watch <URL> [--json] [--variant …] [--duration S] [--outage-limit S] [network]`: one
/// line per snapshot of a live playlist until ENDLIST, the duration or SIGINT (exit 0); an
/// outage past the limit ends it with exit 1 and the typed error.
struct WatchCommand: Sendable {
    let url: URL
    let json: Bool
    let selection: SelectionPolicy
    let duration: Duration?
    let outageLimit: Duration?
    let network: NetworkOptions

    static let usage = "tessera watch <URL> [--json] \(SelectionOptions.variantUsage) [--duration <seconds>] [--outage-limit <seconds>] \(NetworkOptions.usage)"

    static let help = CommandHelp(
        name: "watch",
        synopsis: usage,
        summary: "Follows a live playlist (a media playlist, or the variant chosen from a multivariant one) with blocking reloads, delta updates or polling as the server allows, and prints one line per snapshot: media sequence, part, segments, how it was reloaded, latency to the edge, health findings. Ends at EXT-X-ENDLIST, after --duration, or on SIGINT/SIGTERM (exit 0); an outage longer than the limit ends it with exit 1.",
        flags: [("--json", "print JSON lines (time, msn, part, mode, segments, endList, health); default one line each")] + SelectionOptions.variantHelp + [
            ("--duration <seconds>", "stop after this long; default until ENDLIST or a signal"),
            ("--outage-limit <seconds>", "give up after an outage this long; default the playlist's window")] + NetworkOptions.help,
        example: "tessera watch https://live.example/master.m3u8 --json --duration 60")

    static func parse(_ arguments: [String]) throws(CommandLineArguments.UsageError) -> WatchCommand {
        var json = false
        var duration: Duration?
        var outageLimit: Duration?
        let parsed = try FetchingArguments.parse(arguments, takesRenditions: false) { argument, rest throws(CommandLineArguments.UsageError) in
            switch argument {
            case "--json": json = true
            case "--duration": duration = try SecondsArgument.take(argument, from: &rest)
            case "--outage-limit": outageLimit = try SecondsArgument.take(argument, from: &rest)
            default: return false
            }
            return true
        }
        let url = try HTTPURLArgument.parse(parsed.positional, exactlyOne: "watch needs exactly one playlist URL")
        let (selection, network) = (parsed.selection, parsed.network)
        return WatchCommand(url: url, json: json, selection: selection.policy, duration: duration, outageLimit: outageLimit, network: network)
    }

    /// The standard-error line of a reloader event (nil for those not shown).
    static func line(_ event: LiveReloader.Event) -> String? {
        switch event {
        case .retry(let attempt, let wait, let reason): "retry \(attempt) in \(LiveReloader.text(wait)): \(reason)"
        case .blockingRefused(let status): "blocking reload refused (HTTP \(status)): one plain reload"
        case .blockingTimedOut(let after): "blocking reload unanswered after \(LiveReloader.text(after)): one plain reload"
        case .deltaRefused(let reason): "delta update not merged (\(reason)): one whole reload"
        case .edgeRegressed(let held, let got): "live edge went back from \(held) to \(got): response set aside"
        case .sourceRestarted(let reason): "source restarted: \(reason)"
        case .noNewSegment(let waited, let endsAfter): "no new segment for \(LiveReloader.text(waited)); ending in \(LiveReloader.text(endsAfter)) without one"
        case .pathwayChanged(let from, let to, let reason): "pathway \(from) → \(to): \(reason)"
        case .steering(let event): "steering: \(event)"
        }
    }

    func run() async -> Int32 {
        await network.withClient(entry: url) { client in await run(client) }
    }

    /// How often the health analyzer's timer looks for stagnation between snapshots.
    static let tick = Duration.milliseconds(500)

    private func run(_ client: HLSClient) async -> Int32 {
        var options = LiveReloader.Options()
        options.outageLimit = outageLimit
        options.selection = selection
        let json = self.json
        // One analyzer for the snapshots, the reloader's events and the timer.
        let health = Lock(LiveHealth())
        let start = ContinuousClock.now
        let reloader = LiveReloader(url: url, client: client, options: options) { event in
            if let line = Self.line(event) { Terminal.line(line, to: .standardError) }
            if case .deltaRefused = event {
                let findings = health.withLock { $0.deltaRefused(at: ContinuousClock.now - start) }
                if !findings.isEmpty { Terminal.line(json ? WatchLine.json(findings) : WatchLine.text(findings)) }
            }
        }
        let channel = SnapshotChannel()
        let printer = Task {
            var pathway: String?
            for await snapshot in channel {
                let now = ContinuousClock.now - start
                let findings = health.withLock { health -> [LiveFinding] in
                    var findings = health.observe(snapshot.playlist, at: now, freshness: snapshot.freshness, blocking: snapshot.mode == .blocking)
                    if snapshot.mode == .delta { health.deltaMerged() }
                    if let current = snapshot.pathway, let before = pathway, current != before {
                        findings += health.pathwaySwitched(at: now, targetDuration: .seconds(snapshot.playlist.targetDuration ?? 6))
                    }
                    return findings
                }
                pathway = snapshot.pathway
                Terminal.line(json ? WatchLine.json(snapshot, findings: findings) : WatchLine.text(snapshot, findings: findings))
            }
        }
        // Stagnation is found on a timer too: a stalled server holding a blocking request sends
        // no snapshot to find it on.
        let ticker = Task {
            while (try? await Task.sleep(for: Self.tick)) != nil {
                let findings = health.withLock { $0.tick(at: ContinuousClock.now - start) }
                if !findings.isEmpty { Terminal.line(json ? WatchLine.json(findings) : WatchLine.text(findings)) }
            }
        }
        defer { ticker.cancel() }
        let duration = self.duration
        let result = await SignalCancellation.run { () -> HLSError? in
            let follower = Task { () -> HLSError? in
                do throws(HLSError) { try await reloader.run(into: channel) } catch { return error }
                return nil
            }
            // --duration ends the follow like a signal does; a timer cancelled because the follow
            // ended first (its sleep throws) cancels nothing.
            let timer = duration.map { duration in Task { if (try? await Task.sleep(for: duration)) != nil { follower.cancel() } } }
            let ended = await withTaskCancellationHandler { await follower.value } onCancel: { follower.cancel() }
            timer?.cancel()
            return ended
        }
        channel.finish()
        await printer.value
        guard let result, result.code != .cancelled else { return 0 }
        Terminal.error(result.message)
        return 1
    }
}
