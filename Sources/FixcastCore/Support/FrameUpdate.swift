/// The bytes that bring a terminal from the frame it shows to the next one, for the live screen.
///
/// At 1 fix a second only the position line (and once a minute the clock) changes, so rewriting all
/// 24 lines would cost the terminal (and tmux, or an SSH link) a screenful of work per second for one
/// line of news. A changed line is written at its row (`CSI row;1H`, then `CSI K` to clear what the old
/// one left, then the line); an unchanged frame writes nothing at all. A frame of another height, or the
/// first one, is written whole (home, every line, clear below), as one write so it never flickers.
///
/// Clearing comes before the text, never after it: a line as wide as the terminal leaves the cursor
/// *on* its last column (the wrap is pending), and xterm, urxvt, st, alacritty ≤ 0.11 and the Linux
/// console erase from that column, the line's last character (the clock's last digit, a `…`).
/// - SeeAlso: console_codes(4) (`CUP`, `EL`, `ED`); microsoft/terminal#3177 (the pending wrap and `EL`).
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
            out += ";1H\u{1B}[K"
            out += next[row]
        }
        return out.isEmpty ? nil : out
    }

    /// The whole frame: home, then each line after clearing its row; the last row is cleared with all
    /// below it (`CSI J` at its start), so a taller frame shown before leaves nothing.
    public static func whole(_ lines: [String]) -> String {
        var frame = "\u{1B}[H"
        for (row, line) in lines.enumerated() {
            frame += row < lines.count - 1 ? "\u{1B}[K" : "\u{1B}[J"
            frame += line
            if row < lines.count - 1 { frame += "\r\n" }
        }
        return lines.isEmpty ? frame + "\u{1B}[J" : frame
    }
}
