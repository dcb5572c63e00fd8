/// Which of the agent's components are failing, and whether what just happened is a change worth one
/// line in the journal.
///
/// A headless agent (`run --json`, a service) has no status line: a person reads what it said in
/// `journalctl`. A component that stops working says so once, and once again when it works again;
/// a retry that fails the same way, or a second failure while it is still failing, is no news (a
/// gpsd that is away is retried every few seconds, MQTT reconnects with a back-off, each reading asks
/// the weather again: one line per attempt would bury the journal).
///
/// A component never seen failing is not announced as working: only a change of state is news.
public struct ComponentHealth: Sendable, Hashable {
    /// The problem each failing component was last said with.
    public private(set) var failing: [Component: ReadingIssue] = [:]
    /// The problems that ask for a person said while each component has been failing: each once, so a
    /// broker that alternates between two of them is not told at every reconnect.
    private var saidWhileFailing: [Component: Set<ReadingIssue>] = [:]

    public init() {}

    /// One outcome of `component`: its problem, or nil when it worked. The notice when this changes
    /// the component's state (working → failing, failing → working), else nil.
    /// - Parameter recovered: the sentence for "works again" (`HealthNotice.recovered` by default).
    /// - Parameter asksForAPerson: the problem is one only a person can end (a refused login, a bad
    ///   certificate), not one that passes by itself (a lost connection): said even while the component
    ///   is already failing, once while it lasts. A broker that comes back refusing the password was
    ///   otherwise only ever "connection lost".
    public mutating func observe(
        _ component: Component, problem: ReadingIssue?, recovered: @autoclosure () -> String? = nil,
        asksForAPerson: Bool = false
    ) -> HealthNotice? {
        if let problem {
            if failing[component] != nil {
                // Still failing: said already, unless this asks for a person and was not said yet.
                guard asksForAPerson, saidWhileFailing[component, default: []].insert(problem).inserted else {
                    return nil
                }
                failing[component] = problem
                return HealthNotice(component: component, message: problem.message, isFailure: true)
            }
            if asksForAPerson { saidWhileFailing[component] = [problem] }
            failing[component] = problem
            return HealthNotice(component: component, message: problem.message, isFailure: true)
        }
        saidWhileFailing[component] = nil
        guard failing.removeValue(forKey: component) != nil else { return nil }
        return HealthNotice(
            component: component, message: recovered() ?? HealthNotice.recovered(component), isFailure: false)
    }

    /// What a finished reading says of the services it used: weather, alerts, the weather ahead and
    /// storage. Each is failing when the reading names it in `errors` and did without it (no weather or
    /// only stored weather served stale, no alert report, not stored); an issue that came with a fresh
    /// answer (a value the provider sent that was dropped as unbelievable) says nothing of the
    /// service's health. The weather ahead is failing while its last refresh failed: the readings
    /// until the next refresh keep naming it (`AheadService`), so only a refresh that worked ends it.
    /// Storage works again only when the track's writes do too: a small insert that got through does
    /// not mean the track's batch will (`trackProblem`: the track's last write's problem).
    public mutating func observe(_ reading: Reading, trackProblem: ReadingIssue? = nil) -> [HealthNotice] {
        var notices: [HealthNotice] = []
        func issue(_ c: Component) -> ReadingIssue? { reading.errors.first { $0.component == c } }
        // A cache hit asked nothing (the weather of minutes ago, within weather.cache_min): it says
        // nothing of the service, which may still be failing; "answers again" waits for an answer.
        let askedNothing = reading.weather.map { $0.cached && !$0.stale } ?? false
        let weatherFailed = reading.weather.map { $0.stale } ?? true
        if !askedNothing, let n = observe(.weather, problem: weatherFailed ? issue(.weather) : nil) {
            notices.append(n)
        }
        if let n = observe(.alerts, problem: reading.alerts == nil ? issue(.alerts) : nil) { notices.append(n) }
        if let n = observe(.ahead, problem: issue(.ahead)) { notices.append(n) }
        if let n = observe(.storage, problem: (reading.id == nil ? issue(.storage) : nil) ?? trackProblem) {
            notices.append(n)
        }
        return notices
    }
}

/// One change of a component's health, as one sentence that names it (for stderr, the journal).
public struct HealthNotice: Sendable, Hashable {
    public var component: Component
    public var message: String
    /// true: it started failing; false: it works again.
    public var isFailure: Bool

    public init(component: Component, message: String, isFailure: Bool) {
        self.component = component
        self.message = message
        self.isFailure = isFailure
    }

    /// The store's file was deleted or replaced while `run` recorded: not a failure (nothing was lost:
    /// the write went to the file now at the path), but what is recorded from now on is in a new file.
    public static func storeReplaced(path: String) -> HealthNotice {
        HealthNotice(
            component: .storage,
            message:
                "storage: the store \(path) was deleted or replaced while recording; what is recorded from now on goes to the file now at that path.",
            isFailure: false)
    }

    /// The sentence for a component that works again.
    public static func recovered(_ component: Component) -> String {
        switch component {
        case .gps: return "gps: gpsd answers again; fixes are read again."
        case .weather: return "weather: the weather service answers again; readings have fresh weather."
        case .place: return "place: place names can be had again."
        case .alerts: return "alerts: the official alerts can be had again."
        case .ahead: return "ahead: the forecast ahead can be had again."
        case .storage: return "storage: writing to the store works again; readings and the track are saved."
        case .config: return "config: the configuration is usable again."
        case .mqtt: return "mqtt: connected to the broker again; readings are published."
        }
    }

    /// The gps sentence for fixes coming after none came (the startup wait, a silent receiver).
    public static let fixesCome = "gps: fixes come from the receiver; readings follow it."

    /// The gps sentence, with the address of the gpsd that answers.
    public static func gpsdBack(address: String) -> String {
        "gps: gpsd at \(address) answers again; fixes are read again."
    }
}
