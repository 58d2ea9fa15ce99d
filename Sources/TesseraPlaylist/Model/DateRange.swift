/// EXT-X-DATERANGE (RFC 8216bis §4.4.5.1), including SCTE-35 (§4.4.5.1.1) and the X- client
/// attributes that carry interstitials (App. D) and other CLASS-defined data.
public struct DateRange: Hashable, Sendable {
    /// ID.
    public var id: String
    /// CLASS.
    public var dateRangeClass: String?
    /// START-DATE (may be absent when an earlier tag with the same ID gave it).
    public var startDate: ProgramDateTime?
    /// CUE entries as written (PRE, POST, ONCE, and any unknown entries).
    public var cue: [String]?
    /// END-DATE.
    public var endDate: ProgramDateTime?
    /// DURATION, seconds.
    public var duration: Double?
    /// PLANNED-DURATION, seconds.
    public var plannedDuration: Double?
    /// X-<name> attributes in order.
    public var clientAttributes: [ClientAttribute]
    /// SCTE35-CMD bytes.
    public var scte35Command: [UInt8]?
    /// SCTE35-OUT bytes.
    public var scte35Out: [UInt8]?
    /// SCTE35-IN bytes.
    public var scte35In: [UInt8]?
    /// END-ON-NEXT=YES.
    public var endsOnNext: Bool
    /// Attributes the tag does not define (other than X-).
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// The client attribute `name` (e.g. `X-ASSET-URI`), if present.
    public func clientAttribute(_ name: String) -> ClientAttribute.Value? {
        clientAttributes.first { $0.name == name }?.value
    }

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(id: String,
                dateRangeClass: String? = nil,
                startDate: ProgramDateTime? = nil,
                cue: [String]? = nil,
                endDate: ProgramDateTime? = nil,
                duration: Double? = nil,
                plannedDuration: Double? = nil,
                clientAttributes: [ClientAttribute] = [],
                scte35Command: [UInt8]? = nil,
                scte35Out: [UInt8]? = nil,
                scte35In: [UInt8]? = nil,
                endsOnNext: Bool = false,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.id = id
        self.dateRangeClass = dateRangeClass
        self.startDate = startDate
        self.cue = cue
        self.endDate = endDate
        self.duration = duration
        self.plannedDuration = plannedDuration
        self.clientAttributes = clientAttributes
        self.scte35Command = scte35Command
        self.scte35Out = scte35Out
        self.scte35In = scte35In
        self.endsOnNext = endsOnNext
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
