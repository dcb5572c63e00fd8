import FixcastCore
import Synchronization

/// The problems of the parts beside the agent (the MQTT link, the alert command, the store's run
/// lock), for the live screen's status line: there a sentence on stderr would be written over the
/// screen, and stay until the next full redraw. One per component, the latest; gone when it works again.
public final class SideProblems: Sendable {
    private let problems = Mutex<[ReadingIssue]>([])

    public init() {}

    /// `issue` is `component`'s problem now; nil: it has none.
    public func set(_ component: Component, _ issue: ReadingIssue?) {
        problems.withLock { list in
            list.removeAll { $0.component == component }
            if let issue { list.append(issue) }
        }
    }

    /// The problems now, in the order they came.
    public var current: [ReadingIssue] { problems.withLock { $0 } }
}
