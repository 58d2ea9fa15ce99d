extension Duration {
    /// The duration in seconds, as a `Double` (what messages, JSON and arithmetic on media time use).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
