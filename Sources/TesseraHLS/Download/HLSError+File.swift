import TesseraSupport

extension HLSError {
    /// The HLS form of a destination failure from `StagingFile`.
    init(destination error: SupportError) {
        self.init(error.code == .destinationExists ? .destinationExists : .destinationUnwritable, error.message, cause: error)
    }
}
