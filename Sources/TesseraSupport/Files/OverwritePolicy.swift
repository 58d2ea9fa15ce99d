/// What to do when the destination already exists.
public enum OverwritePolicy: Sendable, Equatable {
    /// Fail with `destination-exists` (checked again, atomically, at commit).
    case refuse
    /// Replace it atomically at commit.
    case replace
    /// Keep the existing file and publish under the first free name of `name.ext`,
    /// `name (1).ext`, … `name (99).ext` (never replacing a file).
    case keepBoth
}
