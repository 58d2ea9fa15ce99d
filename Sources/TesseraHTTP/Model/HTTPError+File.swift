import TesseraSupport

extension HTTPError {
    /// The HTTP form of a durable-file failure from `TesseraSupport` (a download's staging file,
    /// a log): category `file`, the same code text, the same message.
    package init(file error: SupportError) {
        self.init(.file, code: Code(error.code.rawValue), error.message)
    }

    /// Runs `body`, whose file failures become `HTTPError(file:)`.
    package static func file<T>(_ body: () throws(SupportError) -> T) throws(HTTPError) -> T {
        do { return try body() } catch { throw HTTPError(file: error) }
    }
}
