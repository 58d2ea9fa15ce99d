/// The release this build reports.
enum TesseraVersion {
    static let current = "0.1.0-dev"
}
