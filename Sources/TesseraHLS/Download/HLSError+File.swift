import TesseraSupport

extension HLSError {
    /// The HLS form of a destination failure from `TesseraSupport` (staging files and folders,
    /// the destination lock): the same code where HLS has one, `destination-unwritable` otherwise.
    package init(destination error: SupportError) {
        let code: Code = switch error.code {
        case .destinationExists: .destinationExists
        case .destinationBusy: .destinationBusy
        case .destinationFull: .insufficientSpace
        default: .destinationUnwritable
        }
        self.init(code, error.message, cause: error)
    }
}
