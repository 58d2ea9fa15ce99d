import TesseraPlaylist

/// Low-Latency CDN tune-in (RFC 8216bis App. C, as hls.js does it): a playlist that came from a
/// cache is behind the live edge by its `Age` plus the time since it last advanced, so the first
/// blocking request asks for that much further — whole target durations as segments, the rest
/// as parts — instead of for a part the server published long ago. Past three target durations
/// behind, the directives are dropped (the whole playlist is asked for plainly); a goal that grew
/// since the last attempt means the estimate cannot be trusted, and the plain next part is asked
/// for. A pure function.
public enum TuneIn {
    /// What to ask for after `playlist`: `directives` moved on by the estimate, or nil to reload
    /// plainly; and the goal (seconds) to pass as `previousGoal` next time.
    /// - Parameters:
    ///   - directives: the next-part directives (`DeliveryDirectives.next`).
    ///   - age: the response's `Age` header, seconds.
    ///   - sinceAdvanced: seconds since the playlist last advanced, as far as the client knows.
    public static func adjust(_ directives: DeliveryDirectives, after playlist: MediaPlaylist, age: Double, sinceAdvanced: Double,
                              previousGoal: Double?) -> (directives: DeliveryDirectives?, goal: Double?) {
        guard let msn = directives.msn else { return (directives, nil) }
        let target = Double(playlist.targetDuration ?? 6)
        let partTarget = playlist.partInformation?.partTarget ?? 0
        let behind = age + sinceAdvanced
        let goal = min(behind - partTarget, target * 1.5)
        guard goal > 0 else { return (directives, nil) }
        if behind > target * 3 { return (nil, goal) }
        if let previousGoal, behind - partTarget > previousGoal { return (directives, 0) }
        let segments = UInt64(goal / target)
        var part = directives.part
        if let current = part, partTarget > 0 {
            part = current + Int((goal.truncatingRemainder(dividingBy: target) / partTarget).rounded())
        }
        return (DeliveryDirectives(msn: msn + segments, part: part, skip: directives.skip), goal)
    }
}
