import CSystem

/// What tells one version of a file from another without reading it: the device and inode it
/// lives at, its size, and when its data and its inode last changed (to the nanosecond). A file
/// rewritten in place at the same size changes its modification time; one replaced changes its
/// inode. What a server checks a file against before serving it under an identity verified
/// earlier.
public struct FileIdentity: Hashable, Sendable {
    /// The device.
    public let device: UInt64
    /// The inode.
    public let inode: UInt64
    /// The size in bytes.
    public let size: UInt64
    /// Last data modification, seconds and nanoseconds since 1970.
    public let modified: (seconds: Int64, nanoseconds: Int64)
    /// Last inode change, seconds and nanoseconds since 1970.
    public let changed: (seconds: Int64, nanoseconds: Int64)
    /// Whether it is a regular file (not a folder, link, device, FIFO or socket).
    public let isRegularFile: Bool

    /// The identity of the open file `descriptor`, or nil when it cannot be read.
    public init?(descriptor: Int32) {
        var fields = [UInt64](repeating: 0, count: 8)
        guard fields.withUnsafeMutableBufferPointer({ tessera_file_identity(descriptor, $0.baseAddress) }) == 0 else { return nil }
        device = fields[0]
        inode = fields[1]
        size = fields[2]
        modified = (Int64(bitPattern: fields[3]), Int64(bitPattern: fields[4]))
        changed = (Int64(bitPattern: fields[5]), Int64(bitPattern: fields[6]))
        isRegularFile = fields[7] == 1
    }

    /// What differs between `self` (as verified) and `now`, or nil: "its size", "its inode",
    /// "its modification time", "its inode change time".
    public func difference(_ now: FileIdentity) -> String? {
        if now.device != device || now.inode != inode { return "its inode" }
        if now.size != size { return "its size" }
        if now.modified != modified { return "its modification time" }
        if now.changed != changed { return "its inode change time" }
        return nil
    }

    public static func == (lhs: FileIdentity, rhs: FileIdentity) -> Bool { lhs.difference(rhs) == nil }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(device)
        hasher.combine(inode)
        hasher.combine(size)
    }
}
