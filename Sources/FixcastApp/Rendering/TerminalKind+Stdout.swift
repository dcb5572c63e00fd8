import FixcastAdapters
import FixcastRendering

extension TerminalKind {
    /// Whether text for stdout is coloured: stdout is a terminal, and one that shows colour. The one
    /// rule for `now` and `alerts`.
    public var colourOnStdout: Bool { colour && Console.stdoutIsTerminal }
}
