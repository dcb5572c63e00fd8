import FixcastAdapters
import FixcastCore

/// The requests a service is making, so that a question for about the same spot arriving while one
/// is in flight joins it instead of asking the server again (DESIGN.md's coalescing rule). The
/// weather, alert and place services each hold one; what "about the same spot" means (a distance)
/// and whether a request may join (a tag: forced or not, which source) stay theirs to say.
///
/// Each request runs as a task on fixcast's own executor (`ThreadExecutor.tasks`, never Swift's
/// global one) and is tracked until the service calls `finish` with its id.
struct RequestsInFlight<Tag: Sendable, Value: Sendable> {
    struct Request: Sendable {
        let id: Int
        let tag: Tag
        let coordinate: Coordinate
        let task: Task<Value, Never>
    }

    private var requests: [Request] = []
    private var nextID = 0

    /// The newest request in flight within `km` of `coordinate` whose tag `matches`.
    func near(_ coordinate: Coordinate, withinKm km: Double, where matches: (Tag) -> Bool = { _ in true }) -> Request? {
        requests.last { matches($0.tag) && GreatCircle.distanceKm($0.coordinate, coordinate) <= km }
    }

    /// The newest request in flight, wherever it is for.
    var newest: Request? { requests.last }

    var isEmpty: Bool { requests.isEmpty }

    /// Starts `operation` (given its request's id) and tracks it until `finish(id)`.
    mutating func start(tag: Tag, at coordinate: Coordinate, _ operation: @escaping @Sendable (Int) async -> Value)
        -> Request
    {
        nextID += 1
        let id = nextID
        let task = ThreadExecutor.tasks.startTask { await operation(id) }
        let request = Request(id: id, tag: tag, coordinate: coordinate, task: task)
        requests.append(request)
        return request
    }

    /// The request `id` has answered: questions from now on start their own.
    mutating func finish(_ id: Int) {
        requests.removeAll { $0.id == id }
    }
}
