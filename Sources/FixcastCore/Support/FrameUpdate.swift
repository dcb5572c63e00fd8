/// The bytes that bring a terminal from the frame it shows to the next one, for the live screen.
///
/// At 1 fix a second only the position line (and once a minute the clock) changes, so rewriting all
/// 24 lines would cost the terminal (and tmux, or an SSH link) a screenful of work per second for one
/// line of news. A changed line is written at its row (`CSI row;1H`, then the line, then `CSI K` to
/// clear what the old one left); an unchanged frame writes nothing at all. A frame of another height,
/// or the first one, is written whole (home, every line, clear below), as one write so it never flickers.
/// - SeeAlso: console_codes(4) (`CUP`, `EL`, `ED`).
public enum FrameUpdate {
    /// What to write to show `next` where `previous` is shown (nil: unknown, draw it all); nil when
    /// nothing changed.
    public static func bytes(from previous: [String]?, to next: [String]) -> String? {
        guard let previous, previous.count == next.count else { return whole(next) }
        var out = ""
        // Appended piece by piece into one string (no string made per piece): at every fix.
        for row in next.indices where next[row] != previous[row] {
            if out.isEmpty { out.reserveCapacity(next[row].utf8.count + 16) }
            out += "\u{1B}["
            out += String(row + 1)
            out += ";1H"
            out += next[row]
            out += "\u{1B}[K"
        }
        return out.isEmpty ? nil : out
    }

    /// The whole frame: home, each line then clear-to-end-of-line, then clear below.
    public static func whole(_ lines: [String]) -> String {
        var frame = "\u{1B}[H"
        for (row, line) in lines.enumerated() {
            frame += line + "\u{1B}[K"
            if row < lines.count - 1 { frame += "\r\n" }
        }
        return frame + "\u{1B}[J"
    }
}
