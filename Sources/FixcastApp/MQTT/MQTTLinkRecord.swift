import FixcastCore
import FixcastText
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// What a running fixcast says about its broker link, in the store's `state` table, so that
/// `fixcast status` (another process) can show it. Holds the process id: a record of a process
/// that is gone (kill -9) is not believed.
public struct MQTTLinkRecord: Sendable, Hashable {
    static let key = "mqtt.link"
    public var pid: Int
    public var connected: Bool
    public var error: String?

    func encoded() -> String {
        JSONValue.object([("pid", .int(pid)), ("connected", .bool(connected)), ("error", .string(error))]).serialized()
    }

    init(pid: Int, connected: Bool, error: String?) {
        self.pid = pid
        self.connected = connected
        self.error = error
    }

    init?(_ text: String) {
        guard let json = try? JSONValue.parse(text), let pid = json["pid"]?.intValue,
            let connected = json["connected"]?.boolValue
        else { return nil }
        self.init(pid: pid, connected: connected, error: json["error"]?.stringValue)
    }

    /// The record of a running process, or nil.
    public static func read(from store: any StateStore) async -> MQTTLinkRecord? {
        guard let text = try? await store.state(key), let record = MQTTLinkRecord(text),
            let pid = pid_t(exactly: record.pid), pid > 0
        else { return nil }
        // kill(pid, 0): 0 or EPERM means the process exists. A pid a damaged store holds is refused above:
        // one past pid_t trapped, and 0 or a negative one names a process group, which always "exists".
        guard kill(pid, 0) == 0 || errno == EPERM else { return nil }
        return record
    }
}
