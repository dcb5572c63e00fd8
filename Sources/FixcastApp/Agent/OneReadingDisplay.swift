import FixcastAdapters
import FixcastCore
import FixcastRendering
import FoundationEssentials

/// `fixcast now`'s output, as the one-reading agent prints its reading: plain text (its problems
/// listed in it and on stderr, one sentence each, unless stderr is the same terminal or file) or one JSON document (then the sentence that makes it a failure —
/// no weather, not stored — on stderr). A stdout that refuses the write is told once for every
/// command by `FixcastCLI.main` (`Console.stdoutLoss`), so it is not reported back here.
struct OneReadingDisplay: ReadingDisplay {
    let json: Bool
    let language: Language
    let options: DisplayOptions
    /// Severity colours: stdout is a terminal that shows them (`TerminalKind`).
    let colour: Bool
    let clock: any WallClock

    func show(_ reading: Reading) -> Console.StdoutWrite {
        if json {
            Console.out(reading.json(language: language).serialized() + "\n")
            if reading.weather == nil {
                let why =
                    reading.errors.first(where: { $0.component == .weather })?.message
                    ?? "weather: no weather could be had."
                Console.err(why + "\n")
            } else if reading.id == nil, let storage = reading.errors.first(where: { $0.component == .storage }) {
                // Printed but not stored is a lost reading (CONTRACT.md exit 1).
                Console.err(storage.message + "\n")
            }
        } else {
            Console.outColoured(
                ReadingText.render(reading, now: clock.now(), options: options, colour: colour))
            // The text lists them under "Problems:"; stderr gets them too unless it is the same
            // file (a terminal, `2>&1`), where each would be read twice.
            if !Console.stderrIsStdout {
                for issue in reading.errors { Console.err(issue.message + "\n") }
            }
        }
        return .written
    }

    func redraw(_ status: AgentStatus, now: Date) {}
    var keyboard: Int32? { nil }
    var isLive: Bool { false }
    func terminalResized() {}
    @discardableResult func close() -> Int { 0 }
}
