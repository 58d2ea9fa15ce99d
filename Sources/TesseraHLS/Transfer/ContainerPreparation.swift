/// What the processor does to a decrypted resource before the output gets it.
package enum ContainerPreparation: Sendable {
    /// Nothing: the resource is kept as fetched, and its output validates it (MPEG-TS into one
    /// file, where the ordered half rebases and validates the joined stream).
    case asFetched
    /// Kept as fetched, each resource validated on its own first (`ResourceMediaCheck`: MPEG-TS,
    /// fMP4 or WebVTT by what its bytes announce), one that is not valid media fetched again and
    /// then refused — the files of a package or a recording, which no output validates.
    case validatedFiles
    /// Checked for a joined fMP4 file: an initialization section must be `ftyp`…`moov`, a
    /// segment's boxes must fill it exactly and its `styp` and `sidx` are dropped.
    case joinedFragmentedMP4
}
