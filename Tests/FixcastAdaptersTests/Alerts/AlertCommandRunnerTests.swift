import FixcastCore
import Foundation
import Synchronization
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// `alerts.command` through the real /bin/sh.
@Suite(.scratch) struct AlertCommandRunnerTests {
    let alert = Alert(
        id: "urn:oid:test.1", event: "Excessive Heat Warning", headline: "it's \"hot\"", severity: .severe,
        expires: Date(timeIntervalSince1970: 1_800_000_000), description: "line 1\nline 2")

    final class Reports: Sendable {
        let lines = Mutex<[String]>([])
        func add(_ s: String) { lines.withLock { $0.append(s) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func runner(
        _ command: String, timeoutS: Double = 30, env: [String: String] = ["PATH": "/usr/bin:/bin"], reports: Reports
    ) -> AlertCommandRunner {
        AlertCommandRunner(command: command, timeoutS: timeoutS, environment: env, report: { reports.add($0) })
    }

    func dir() -> URL { TestPaths.temporaryDirectory("alertcmd") }

    @Test func stdinCarriesTheAlertJSONAndTheEnvironmentItsEventAndSeverity() throws {
        let out = dir()
        let reports = Reports()
        let cmd =
            "cat > '\(out.path)/stdin.json'; printf '%s|%s' \"$FIXCAST_ALERT_EVENT\" \"$FIXCAST_ALERT_SEVERITY\" > '\(out.path)/env.txt'"
        let outcome = runner(cmd, reports: reports).runAndWait(alert: alert)
        #expect(outcome == .exited(status: 0))
        #expect(reports.all.isEmpty)
        let stdin = try Data(contentsOf: out.appendingPathComponent("stdin.json"))
        let obj = try #require(try JSONSerialization.jsonObject(with: stdin) as? [String: Any])
        #expect(obj["id"] as? String == alert.id)
        #expect(obj["headline"] as? String == "it's \"hot\"")
        #expect(obj["severity"] as? String == "severe")
        #expect(obj["description"] as? String == "line 1\nline 2")
        #expect(
            try String(contentsOf: out.appendingPathComponent("env.txt"), encoding: .utf8)
                == "Excessive Heat Warning|severe")
    }

    @Test func secretsAreNotPassedOn() throws {
        let out = dir()
        let reports = Reports()
        let env = [
            "PATH": "/usr/bin:/bin", "FIXCAST_WEATHER_API_KEY": "s3cret", "FIXCAST_MQTT_PASSWORD": "pw",
            "KEEP_ME": "yes",
        ]
        let outcome = runner("env > '\(out.path)/env.txt'", env: env, reports: reports).runAndWait(alert: alert)
        #expect(outcome.succeeded)
        let text = try String(contentsOf: out.appendingPathComponent("env.txt"), encoding: .utf8)
        #expect(!text.contains("s3cret") && !text.contains("FIXCAST_MQTT_PASSWORD"))
        #expect(text.contains("KEEP_ME=yes"))
    }

    @Test func aNonZeroExitIsReportedInOneSentence() {
        let reports = Reports()
        let outcome = runner("exit 3", reports: reports).runAndWait(alert: alert)
        #expect(outcome == .exited(status: 3))
        #expect(reports.all == ["alerts: the alert command exited with status 3; check alerts.command."])
    }

    /// A failing command is said once, not once per alert, until it works again, which is said once.
    /// What the command prints is not fixcast's output (a reply of ntfy's on the live screen, a line that
    /// is no reading in `run --json`'s stream): stdout goes nowhere, stderr is kept for the sentence.
    @Test func theCommandsOutputDoesNotReachFixcastsStdoutOrStderr() throws {
        let out = dir()
        let reports = Reports()
        // Read before any redirection of the shell's own: the descriptors it was started with.
        let cmd =
            "a=$(readlink /proc/$$/fd/1); b=$(readlink /proc/$$/fd/2); printf '%s\\n%s\\n' \"$a\" \"$b\" > '\(out.path)/fds'"
        #expect(runner(cmd, reports: reports).runAndWait(alert: alert) == .exited(status: 0))
        let fds = try String(contentsOfFile: out.path + "/fds", encoding: .utf8).split(separator: "\n")
        #expect(fds.first == "/dev/null")
        #expect(fds.count == 2 && fds[1].hasSuffix("(deleted)"))
    }

    /// On the live screen the failures go to its status line (`problem`), never to `report` (stderr,
    /// written over the screen): the sentence while it fails, nil once it works again.
    @Test func withAProblemSinkFailuresAndTheRecoveryGoThereAlone() throws {
        let flag = dir().path + "/ok"
        let reports = Reports()
        let problems = Reports()
        let r = AlertCommandRunner(
            command: "test -e '\(flag)' || exit 5", environment: ["PATH": "/usr/bin:/bin"],
            report: { reports.add($0) }, problem: { problems.add($0 ?? "(works again)") })
        r.runAndWait(alert: alert)
        r.runAndWait(alert: alert)
        try FileManager.default.createDirectory(atPath: flag, withIntermediateDirectories: true)
        r.runAndWait(alert: alert)
        #expect(reports.all.isEmpty)
        #expect(
            problems.all == ["alerts: the alert command exited with status 5; check alerts.command.", "(works again)"])
    }

    @Test func aFailureSentenceQuotesTheCommandsLastLineOnStderr() {
        let reports = Reports()
        let cmd = "echo 'a reply on stdout'; printf 'first\\nnotify-sendx: not found\\033[31m\\n' >&2; exit 127"
        #expect(runner(cmd, reports: reports).runAndWait(alert: alert) == .exited(status: 127))
        #expect(
            reports.all == [
                "alerts: the alert command exited with status 127 (notify-sendx: not found\\u{1B}[31m); check alerts.command."
            ])
    }

    @Test func aFailingCommandIsSaidOnceUntilItWorksAgain() throws {
        let flag = dir().appendingPathComponent("works").path
        let reports = Reports()
        let r = runner("test -e '\(flag)' || exit 127", reports: reports)
        for _ in 0..<3 { #expect(r.runAndWait(alert: alert) == .exited(status: 127)) }
        #expect(reports.all == ["alerts: the alert command exited with status 127; check alerts.command."])
        #expect(FileManager.default.createFile(atPath: flag, contents: nil))
        for _ in 0..<2 { #expect(r.runAndWait(alert: alert).succeeded) }
        try FileManager.default.removeItem(atPath: flag)
        #expect(r.runAndWait(alert: alert) == .exited(status: 127))
        #expect(
            reports.all == [
                "alerts: the alert command exited with status 127; check alerts.command.",
                "alerts: the alert command works again.",
                "alerts: the alert command exited with status 127; check alerts.command.",
            ])
    }

    @Test func aHungCommandIsKilledWithItsChildrenAfterTheTimeout() throws {
        let out = dir()
        let reports = Reports()
        let started = Date()
        // The shell starts a grandchild that would outlive it; the whole process group must go.
        let outcome = runner("sleep 30 & echo $! > '\(out.path)/child.pid'; wait", timeoutS: 1, reports: reports)
            .runAndWait(alert: alert)
        #expect(outcome == .timedOut)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(reports.all.first?.hasPrefix("alerts: the alert command did not finish within 1 s") == true)
        let pidText = try String(contentsOf: out.appendingPathComponent("child.pid"), encoding: .utf8)
        let pid = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone: no such process, or killed and not yet reaped (a zombie, until whoever adopted it, init
        // here, reaps it: on a loaded machine that can take a while, and kill(pid, 0) still succeeds).
        func isGone() -> Bool {
            if kill(pid, 0) != 0 { return true }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return true }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }
        var gone = false
        for _ in 0..<250 {
            if isGone() {
                gone = true
                break
            }
            usleep(20_000)
        }
        #expect(gone, "the grandchild sleep was killed with the group")
    }

    @Test func aCommandThatIgnoresStdinDoesNotBlock() {
        let reports = Reports()
        var big = alert
        big.description = String(repeating: "ø", count: 8_000)
        big.instruction = String(repeating: "€", count: 8_000)
        #expect(runner("true", reports: reports).runAndWait(alert: big) == .exited(status: 0))
    }

    @Test func runReturnsAtOnceAndTheCommandStillRuns() throws {
        let out = dir()
        let reports = Reports()
        let started = Date()
        runner("sleep 0.3; echo done > '\(out.path)/done'", reports: reports).run(alert: alert)
        #expect(Date().timeIntervalSince(started) < 0.25)
        var found = false
        for _ in 0..<250 {
            if FileManager.default.fileExists(atPath: out.appendingPathComponent("done").path) {
                found = true
                break
            }
            usleep(20_000)
        }
        #expect(found)
        AlertCommandRunner(command: "", report: { reports.add($0) }).run(alert: alert)  // no command: nothing
        #expect(reports.all.isEmpty)
    }

    /// Waits until `path` holds `count` lines (at most 10 s); its lines.
    func lines(_ path: String, atLeast count: Int) -> [String] {
        for _ in 0..<500 {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map(String.init)
            if lines.count >= count { return lines }
            usleep(20_000)
        }
        return (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// A burst of alerts started a shell for each at once (100 `notify-send`s take a Pi's memory): at most
    /// `maxRunning` run, the others wait their turn and all of them run.
    @Test func aBurstRunsAFewAtATimeAndEveryOneInTurn() throws {
        let log = dir().appendingPathComponent("log").path
        let reports = Reports()
        let runner = AlertCommandRunner(
            command: "echo s >> '\(log)'; sleep 0.2; echo e >> '\(log)'", environment: ["PATH": "/usr/bin:/bin"],
            maxRunning: 2, report: { reports.add($0) })
        for i in 0..<6 { runner.run(alert: Alert(id: "a\(i)", event: "Wind", severity: .severe)) }
        let seen = lines(log, atLeast: 12)
        #expect(seen.filter { $0 == "s" }.count == 6 && seen.filter { $0 == "e" }.count == 6, "\(seen)")
        var running = 0
        var most = 0
        for line in seen {
            running += line == "s" ? 1 : -1
            most = max(most, running)
        }
        #expect(most == 2, "at most two at once, and two did run together: \(seen)")
        #expect(reports.all.isEmpty)
    }

    /// Past `maxWaiting` waiting, an alert is not passed on, and that is said once a burst.
    @Test func pastTheQueueAnAlertIsNotPassedOnAndThatIsSaidOnce() throws {
        let log = dir().appendingPathComponent("log").path
        let reports = Reports()
        let runner = AlertCommandRunner(
            command: "sleep 0.2; echo x >> '\(log)'", environment: ["PATH": "/usr/bin:/bin"], maxRunning: 1,
            maxWaiting: 2, report: { reports.add($0) })
        for i in 0..<5 { runner.run(alert: Alert(id: "a\(i)", event: "Wind", severity: .severe)) }
        #expect(lines(log, atLeast: 3).count == 3)
        usleep(400_000)
        #expect(lines(log, atLeast: 3).count == 3, "the two past the queue never ran")
        #expect(
            reports.all == [
                "alerts: more than 2 alerts waited for the alert command, so the newest were not passed to it; check alerts.command."
            ])
        // Drained: the next burst is told about again.
        for i in 5..<9 { runner.run(alert: Alert(id: "a\(i)", event: "Wind", severity: .severe)) }
        #expect(lines(log, atLeast: 6).count == 6)
        #expect(reports.all.count == 2)
    }
}
