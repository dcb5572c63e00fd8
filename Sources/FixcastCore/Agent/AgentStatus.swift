import FoundationEssentials

/// What the live screen shows, as the reducer knows it; the loop redraws it on `.redraw`.
public struct AgentStatus: Sendable, Hashable {
    /// Stored at launch, then each finished one.
    public var reading: Reading? {
        get { readingBox.value }
        set { readingBox = ReadingBox(newValue) }
    }
    /// The reading behind one reference: the reducer copies and compares the status at every event
    /// (at 1 Hz, for hours), and a `Reading` is dozens of strings and arrays; the same box compares
    /// equal at once.
    private var readingBox: ReadingBox
    /// Live fix, or last one while lost (satellitesUsed updated from `.satellites`); nil before the first.
    public var position: Position?
    public var fixLostSince: Date?
    public var gps: GPSStatus
    /// The last failed track/last-known write (nil while writes work).
    public var storage: ReadingIssue?
    /// A reading in flight.
    public var updating: Bool
    /// The official alerts active at the position, as last checked.
    public var activeAlertIDs: [String]
    /// Status-line problems, most important first: gps issue, storage, then the last reading's errors.
    public var problems: [ReadingIssue]

    public init(
        reading: Reading? = nil, position: Position? = nil, fixLostSince: Date? = nil, gps: GPSStatus = .starting,
        storage: ReadingIssue? = nil, updating: Bool = false, activeAlertIDs: [String] = [],
        problems: [ReadingIssue] = []
    ) {
        self.readingBox = ReadingBox(reading)
        self.position = position
        self.fixLostSince = fixLostSince
        self.gps = gps
        self.storage = storage
        self.updating = updating
        self.activeAlertIDs = activeAlertIDs
        self.problems = problems
    }
}

/// One reading, shared by the copies of an `AgentStatus` (see `AgentStatus.reading`).
private final class ReadingBox: Hashable, Sendable {
    let value: Reading?

    init(_ value: Reading?) {
        self.value = value
    }

    static func == (lhs: ReadingBox, rhs: ReadingBox) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
