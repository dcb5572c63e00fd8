/// Outside text made inert for the status bars `fixcast line` feeds.
///
/// The bars read markup in what a command prints. tmux expands `#(` (runs a shell command: tmux before
/// 3.2 ran one found in a `#()` command's own output, and Debian 11 ships 3.1c), `#{` (formats) and `#[`
/// (styles) there; polybar and lemonbar read `%{` as a tag, and `%{A1:cmd:}` runs `cmd` on a click.
/// A place name is OpenStreetMap's, which anyone can edit. No escape works in every bar (tmux's `##`
/// shows doubled elsewhere; polybar has none), so the `#` or `%` that would open markup becomes its
/// full-width twin (`＃`, `％`): the name reads the same and no bar acts on it. A `#` or `%` at the
/// end goes the same way, since the format's next character (`%l(`) could complete it. Only outside
/// text passes here: the user's own `--format` keeps its markup.
public enum BarMarkup {
    /// Each character that opens markup: its full-width twin, and the characters after it that open.
    static let openers: [Unicode.Scalar: (twin: Unicode.Scalar, before: Set<Unicode.Scalar>)] = [
        "#": ("\u{FF03}", ["(", "{", "["]), "%": ("\u{FF05}", ["{"]),
    ]

    /// `text` with every markup opener replaced by its full-width twin.
    public static func inert(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, scalar) in scalars.enumerated() {
            guard let opener = openers[scalar] else {
                out.append(scalar)
                continue
            }
            let opens = i + 1 == scalars.count || opener.before.contains(scalars[i + 1])
            out.append(opens ? opener.twin : scalar)
        }
        return String(out)
    }
}
