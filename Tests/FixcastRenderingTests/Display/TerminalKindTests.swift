import FixcastRendering
import Testing

/// `TerminalKind`: TERM=dumb takes the live screen and colour away, a non-empty NO_COLOR colour only.
@Suite struct TerminalKindTests {
    @Test func anyOtherTerminalMovesTheCursorAndShowsColour() {
        for environment in [[:], ["TERM": "xterm-256color"], ["TERM": ""], ["TERM": "tmux-256color", "NO_COLOR": ""]] {
            let kind = TerminalKind(environment: environment)
            #expect(kind.movesCursor, "\(environment)")
            #expect(kind.colour, "\(environment)")
        }
    }

    @Test func dumbTerminalGetsNeitherScreenNorColour() {
        let kind = TerminalKind(environment: ["TERM": "dumb"])
        #expect(!kind.movesCursor)
        #expect(!kind.colour)
    }

    @Test func noColorTakesOnlyTheColourAway() {
        for value in ["1", "0", "false", "yes"] {
            let kind = TerminalKind(environment: ["TERM": "xterm", "NO_COLOR": value])
            #expect(kind.movesCursor, "NO_COLOR=\(value)")
            #expect(!kind.colour, "NO_COLOR=\(value)")
        }
    }
}
