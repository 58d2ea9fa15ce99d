import TesseraHTTP

extension HLSError {
    /// The HLS form of a destination failure from `StagingFile`.
    init(destination error: HTTPError) {
        self.init(error.code == "destination-exists" ? .destinationExists : .destinationUnwritable, error.message, cause: error)
    }
}
