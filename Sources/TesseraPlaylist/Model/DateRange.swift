/// EXT-X-DATERANGE (RFC 8216bis §4.4.5.1), including SCTE-35 (§4.4.5.1.1) and the X- client
/// attributes that carry interstitials (App. D) and other CLASS-defined data.
public struct DateRange: Hashable, Sendable {
    /// ID.
    public let id: String
    /// CLASS.
    public let dateRangeClass: String?
    /// START-DATE (may be absent when an earlier tag with the same ID gave it).
    public let startDate: ProgramDateTime?
    /// CUE entries as written (PRE, POST, ONCE, and any unknown entries).
    public let cue: [String]?
    /// END-DATE.
    public let endDate: ProgramDateTime?
    /// DURATION, seconds.
    public let duration: Double?
    /// PLANNED-DURATION, seconds.
    public let plannedDuration: Double?
    /// X-<name> attributes in order.
    public let clientAttributes: [ClientAttribute]
    /// SCTE35-CMD bytes.
    public let scte35Command: [UInt8]?
    /// SCTE35-OUT bytes.
    public let scte35Out: [UInt8]?
    /// SCTE35-IN bytes.
    public let scte35In: [UInt8]?
    /// END-ON-NEXT=YES.
    public let endsOnNext: Bool
    /// Attributes the tag does not define (other than X-).
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine

    /// The client attribute `name` (e.g. `X-ASSET-URI`), if present.
    public func clientAttribute(_ name: String) -> ClientAttribute.Value? {
        clientAttributes.first { $0.name == name }?.value
    }
}
