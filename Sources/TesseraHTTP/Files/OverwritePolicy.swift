/// What to do when the destination already exists.
public enum OverwritePolicy: Sendable, Equatable {
    /// Fail with `destination-exists` (checked again, atomically, at commit).
    case refuse
    /// Replace it atomically at commit.
    case replace
}
