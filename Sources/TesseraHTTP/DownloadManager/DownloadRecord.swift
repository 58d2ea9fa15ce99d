/// One line of a `DownloadManager`'s state log. URLs with a query are not stored (signed values
/// never reach the disk); their downloads come back as `needsURL`.
struct DownloadRecord: Codable {
    enum Operation: String, Codable {
        case add, validator, pause, resume, complete, fail, remove, url
    }

    var id: String
    var op: Operation
    /// The URL, only when it has no query.
    var url: String?
    /// The URL's host and path, kept to check a URL given again.
    var place: String?
    var fileName: String?
    var etag: String?
    var lastModified: String?
    var total: Int64?
    var path: String?
    var code: String?
    var message: String?

    init(id: String, op: Operation) {
        self.id = id
        self.op = op
    }
}
