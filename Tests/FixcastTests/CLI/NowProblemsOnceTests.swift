import Foundation
import Testing

@testable import FixcastTestSupport

/// `now`'s text lists its problems under "Problems:" and says each on stderr as well, for a script
/// that keeps only stdout. When both streams are one file (the terminal a person types in, `2>&1`),
/// each sentence was read twice; it is now told once there, and still on both where they differ.
@Suite(.serialized, .scratch) struct NowProblemsOnceTests {
    static let sentence = "weather: offline mode and no stored weather near here"

    /// `now --offline` at a spot with nothing stored (a problem and exit 1), through `/bin/sh` so the
    /// two streams can be joined or kept apart.
    static func now(_ home: AcceptanceHome, redirect: String) throws -> ShellRun.Result {
        let env = fixcastEnvironment(home: home.dir, adding: Acceptance.env(nil))
        let command =
            "exec '\(TestPaths.fixcastBinary)' now --offline --at 52.52,13.405 --config /dev/null --db '\(home.db)' \(redirect)"
        return try ShellRun.run("/bin/sh", ["-c", command], env: env)
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("stderr joined to stdout (2>&1): each problem once, in the text; exit 1 still")
    func joinedStreamsTellOnce() throws {
        let home = AcceptanceHome("problems-once")
        defer { home.remove() }
        let r = try Self.now(home, redirect: "2>&1")
        #expect(r.status == 1)
        #expect(r.stdout.contains("Problems:"), "\(r.stdout)")
        #expect(Self.count(Self.sentence, in: r.stdout) == 1, "\(r.stdout)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }

    @Test("stdout and stderr apart: the text lists the problem and stderr says it")
    func separateStreamsTellBoth() throws {
        let home = AcceptanceHome("problems-apart")
        defer { home.remove() }
        let r = try Self.now(home, redirect: "")
        #expect(r.status == 1)
        #expect(Self.count(Self.sentence, in: r.stdout) == 1, "\(r.stdout)")
        #expect(r.stderr.hasPrefix(Self.sentence), "\(r.stderr)")
    }
}
