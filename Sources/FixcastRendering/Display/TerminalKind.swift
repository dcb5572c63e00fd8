/// What the terminal a person runs fixcast in can show, by the two conventions terminal programs
/// follow: `TERM=dumb` (Emacs' shell buffer, an editor's or a CI's output pane) moves no cursor and
/// draws no colour, so it gets neither the live screen nor colour codes, which would show there as
/// `^[[31m` and a screen redrawn as a scroll of escapes; `NO_COLOR` set and not empty (no-color.org)
/// asks for text without colour. Whether stdout is a terminal at all is asked of the system, not here;
/// an unset `TERM` is not taken for a dumb one (`env -i`, a service's pty).
public struct TerminalKind: Sendable, Equatable {
    /// The live screen: cursor addressing, the alternate screen, lines cleared in place.
    public let movesCursor: Bool
    /// Severity colours in `now` and `alerts`.
    public let colour: Bool

    public init(environment: [String: String]) {
        let dumb = environment["TERM"] == "dumb"
        movesCursor = !dumb
        colour = !dumb && (environment["NO_COLOR"] ?? "").isEmpty
    }
}
