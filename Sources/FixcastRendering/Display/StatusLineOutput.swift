import FixcastCore
import FixcastText

/// How `fixcast line` prints a `StatusLine` for each bar: plain text (tmux, polybar, anything), waybar's
/// custom-module JSON (one object a line; `return-type: json`), or i3blocks' lines (full text, short
/// text, colour). The text is already clean of control and bidi characters (`StatusLine`); each mode
/// escapes only for its own syntax.
public enum StatusLineOutput: Sendable, Hashable {
    case plain, waybar, i3blocks

    /// i3blocks' colour: red for an extreme or severe alert, orange for a moderate one, grey when the
    /// line is stale or has no fix; none otherwise (the bar's own colour).
    static func colour(_ line: StatusLine) -> String? {
        switch line.alertSeverity {
        case .extreme?, .severe?: return "#FF5555"
        case .moderate?: return "#FFB86C"
        default: return line.stale || line.noFix ? "#888888" : nil
        }
    }

    /// The output for one line, ending in a newline.
    public func render(_ line: StatusLine) -> String {
        switch self {
        case .plain:
            return line.text + "\n"
        case .waybar:
            // waybar reads text and tooltip as Pango markup: a place called "<b>" must stay text.
            let json: JSONValue = .object([
                ("text", .string(Self.pangoEscaped(line.text))),
                ("tooltip", .string(Self.pangoEscaped(line.tooltip))),
                ("class", .array(line.classes.map { .string($0) })),
                ("alt", .string(line.alt)),
            ])
            return json.serialized() + "\n"
        case .i3blocks:
            // The short text is for a crowded bar: the condition symbol and the temperature.
            let short = line.noFix ? line.text : (line.stale ? "~" : "") + line.shortText
            return line.text + "\n" + short + "\n" + (Self.colour(line).map { $0 + "\n" } ?? "")
        }
    }

    static func pangoEscaped(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }
}
