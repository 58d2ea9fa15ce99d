import TesseraSupport

/// What a package folder's `transform` made of a resource, written instead of its bytes: the
/// file they go to, the bytes, and what the checkpoint keeps beside the resource's record so that
/// a resume can restore whoever made them (`ResourceFileRecord.mux`). A movie's media segments
/// become the samples of its body file so (`MovieStreamer`).
package struct TransformedResource {
    /// The file, in the staging folder, the bytes are appended to.
    package let path: SafeRelativePath
    /// What is written, in order: pieces of other buffers (a segment's samples where they lie).
    package let pieces: [ArraySlice<UInt8>]
    /// Their bytes.
    package var count: Int { pieces.reduce(0) { $0 + $1.count } }
    /// Kept with the resource's record, handed back by `PackageFolder.restore`.
    package let payload: String?

    /// `pieces` appended to `path` in order, with `payload` for the checkpoint.
    package init(path: SafeRelativePath, pieces: [ArraySlice<UInt8>], payload: String?) {
        self.path = path
        self.pieces = pieces
        self.payload = payload
    }
}
