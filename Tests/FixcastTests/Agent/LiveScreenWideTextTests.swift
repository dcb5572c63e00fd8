import Foundation
import Testing

@testable import FixcastTestSupport

/// A place name of emoji (two columns each in a terminal) on the live screen, through the binary and a
/// real tmux: the name is cut to the pane's width as tmux draws it, so no line wraps onto the next row
/// and no row of the screen is lost or moved.
@Suite(.serialized, .scratch) struct LiveScreenWideTextTests {
    typealias T = LiveScreenJobControlTests

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: T.tmux), "tmux is not installed"))
    func emojiPlaceNameKeepsEveryRow() throws {
        let home = AcceptanceHome("live-wide")
        defer { home.remove() }
        let name = String(repeating: "🚗", count: 30) + " Ring"
        let reverse = """
            {"place_id": 1, "lat": "50.9373", "lon": "6.9592", "name": "\(name)", "display_name": "\(name)",
             "address": {"town": "\(name)", "state": "North Rhine-Westphalia", "country": "Germany",
             "country_code": "de"}}
            """
        let server = try FixtureServer.started(routes: [
            "/v1/forecast": [.file(Acceptance.forecastFixture)], "/reverse": [.body(reverse)],
        ])
        defer { server.stop() }
        let socket = home.path("tmux.sock")
        defer { _ = try? T.tmux(socket, ["kill-server"]) }
        let env = fixcastEnvironment(home: home.dir, adding: Acceptance.env(server))
            .map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let command = "env -i \(env) \(TestPaths.fixcastBinary) run --at 50.9373,6.9592 --db \(home.db)"
        _ = try T.tmux(socket, ["-f", "/dev/null", "new-session", "-d", "-s", "fx", "-x", "50", "-y", "20", command])
        let screen = try T.waitFor(socket) { $0.contains("🚗") && $0.contains("q quit") }
        let rows = screen.components(separatedBy: "\n")
        #expect(rows.first?.hasPrefix("fixcast · live weather") == true, "\(screen)")
        let placeRow = try #require(rows.firstIndex { $0.contains("🚗") }, "\(screen)")
        #expect(rows[placeRow].hasSuffix("…"), "cut to the pane: \(screen)")
        #expect(rows.indices.contains(placeRow + 1) && rows[placeRow + 1].hasPrefix("50.9373° N"), "\(screen)")
        #expect(rows.filter { $0.contains("🚗") }.count == 1, "the name wraps onto no other row: \(screen)")
    }
}
