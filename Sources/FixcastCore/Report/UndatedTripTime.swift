/// Decides which trip a track point or reading without a fix time belongs to: the trip of the dated
/// fixes received around it, not the wall clock's (CONTRACT.md "Trips and reports").
///
/// A receiver's first fix can come before gpsd knows the date, so that point (and the startup
/// reading taken there) has no fix time. Dated by its receive time, it falls far from a replayed log
/// (the demo: a 2025 drive replayed in 2026) and `trips` listed a 0 km trip of its own. Instead it
/// takes the fix time of the first dated track point received after it, less the receive-time
/// difference (the receiver's clock, shifted back by how long it waited); failing that, the last
/// dated one before it, plus the difference for a point and at that fix's time for a reading (so a
/// reading taken after a trip's last fix stays in that trip). A reading at the last known position
/// is dated this way too (`Reading.tripTime`): its fix time is that old fix's. Only a neighbour received less than the trip gap away
/// counts (a fix received further off is another trip's by the same rule); with none, the point keeps
/// its receive time, as before.
///
/// Streamed in receive order, holding only the undated items of the last gap; `assigned` collects
/// the items whose trip time is not their receive time.
public struct UndatedTripTime: Sendable {
    /// What is dated: a track point (a neighbour when dated) or a reading (only ever dated by points).
    public enum Kind: Sendable, Hashable { case trackPoint, reading }

    /// One item in receive order: its row id, receive time and fix time (seconds since 1970).
    public struct Item: Sendable, Hashable {
        public var kind: Kind
        public var id: Int64
        public var receivedAt: Double
        public var fixTime: Double?

        public init(kind: Kind, id: Int64, receivedAt: Double, fixTime: Double?) {
            self.kind = kind
            self.id = id
            self.receivedAt = receivedAt
            self.fixTime = fixTime
        }
    }

    /// An undated item's trip time (seconds since 1970), from a dated neighbour.
    public struct Assigned: Sendable, Hashable {
        public var kind: Kind
        public var id: Int64
        public var tripTime: Double

        public init(kind: Kind, id: Int64, tripTime: Double) {
            self.kind = kind
            self.id = id
            self.tripTime = tripTime
        }
    }

    private let gapS: Double
    private var pending: [Item] = []
    private var head = 0  // pending[..<head] are done; an index, so a long undated run costs O(1) per item
    private var previous: (receivedAt: Double, fixTime: Double)?
    public private(set) var assigned: [Assigned] = []

    public init(gapMinutes: Double = TripSplitter.defaultGapMinutes) { gapS = gapMinutes * 60 }

    /// Takes the next item (not received before the one before). Dated readings are not neighbours:
    /// a reading's fix time is its position's, a track point's.
    public mutating func add(_ item: Item) {
        // Items waiting longer than the gap have no neighbour after them: date them by the one before.
        while head < pending.count, item.receivedAt - pending[head].receivedAt >= gapS {
            assignBackward(pending[head])
            head += 1
        }
        if head > 0, head * 2 >= pending.count {  // compact: amortised O(1), memory stays one gap's items
            pending.removeFirst(head)
            head = 0
        }
        if let fix = item.fixTime {
            guard item.kind == .trackPoint else { return }
            for p in pending[head...] {
                assigned.append(Assigned(kind: p.kind, id: p.id, tripTime: fix - (item.receivedAt - p.receivedAt)))
            }
            pending.removeAll(keepingCapacity: true)
            head = 0
            previous = (item.receivedAt, fix)
        } else {
            pending.append(item)
        }
    }

    /// The assigned trip times, once every item is in.
    public mutating func finish() -> [Assigned] {
        for p in pending[head...] { assignBackward(p) }
        pending.removeAll()
        head = 0
        return assigned
    }

    private mutating func assignBackward(_ item: Item) {
        guard let prev = previous, item.receivedAt - prev.receivedAt < gapS else { return }
        // A reading after a trip's last fix (gpsd lost it, the car parked) is that trip's, at its
        // end: dated later, it would fall outside the trip whose last position it holds.
        let later = item.kind == .reading ? 0 : item.receivedAt - prev.receivedAt
        assigned.append(Assigned(kind: item.kind, id: item.id, tripTime: prev.fixTime + later))
    }
}
