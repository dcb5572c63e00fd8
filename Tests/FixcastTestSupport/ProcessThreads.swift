import Foundation

/// A process's threads as /proc lists them (`/proc/PID/task/TID`), with their names (`comm`): for the
/// tests that check which threads fixcast runs and how often they wake.
enum ProcessThreads {
    struct Thread {
        let tid: String
        let name: String
        /// `/proc/PID/task/TID`.
        let path: String

        /// Voluntary and involuntary context switches so far (its `status`); nil when it is gone.
        var contextSwitches: Int? {
            guard let status = try? String(contentsOfFile: path + "/status", encoding: .utf8) else { return nil }
            return status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }.reduce(0) { sum, line in
                sum + (Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0)
            }
        }
    }

    /// The threads of process `pid` ("self": this test process).
    static func of(_ pid: String) -> [Thread] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.map { tid in
            let path = "/proc/\(pid)/task/\(tid)"
            let name = ((try? String(contentsOfFile: path + "/comm", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return Thread(tid: tid, name: name, path: path)
        }
    }
}
