import Foundation

/// One thing the scaling gate times at two sizes ten times apart: `prepare` builds the input for
/// a size outside the timing and returns the work, which reports how many items it handled (so
/// the compiler keeps it, and so the gate can show that the large input really is larger).
struct ScalingCase: Sendable {
    typealias Work = @Sendable () async throws -> Int

    /// The name `--only` takes and the result line shows.
    let name: String
    /// What grows between the two sizes.
    let unit: String
    let small: Int
    let large: Int
    let prepare: @Sendable (Int) async throws -> Work

    init(_ name: String, unit: String = "segments", small: Int = 10_000, large: Int = 100_000,
         prepare: @escaping @Sendable (Int) async throws -> Work) {
        self.name = name
        self.unit = unit
        self.small = small
        self.large = large
        self.prepare = prepare
    }

    /// This case with both sizes multiplied by `factor` (at least 1 item each).
    func scaled(by factor: Double) -> ScalingCase {
        guard factor != 1 else { return self }
        return ScalingCase(name, unit: unit, small: max(1, Int(Double(small) * factor)), large: max(2, Int(Double(large) * factor)), prepare: prepare)
    }
}

/// Why a case could not be timed: its input did not load as it must.
struct ScalingSetupError: Error, CustomStringConvertible {
    let description: String
}
