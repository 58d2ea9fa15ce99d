/// What the processor does to a decrypted resource before the output gets it.
package enum ContainerPreparation: Sendable {
    /// Nothing: the resource is kept as fetched (MPEG-TS into one file, where the ordered half
    /// rebases and validates; files of a package or recording).
    case asFetched
    /// Checked for a joined fMP4 file: an initialization section must be `ftyp`…`moov`, a
    /// segment's boxes must fill it exactly and its `styp` and `sidx` are dropped.
    case joinedFragmentedMP4
}
