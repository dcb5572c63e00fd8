/// A command-line argument as a person should type it into a POSIX shell, for the commands fixcast
/// suggests in its messages ("try `fixcast search 'St. Gallen'`"): the text as it is when the shell
/// would read it back as that one word, else in single quotes; and after `--` when it begins with
/// "-", so that fixcast reads it as a name and not as an option. The text is shown, never run.
public enum ShellWord {
    /// `text` as one shell word, `--` first when it would read as an option.
    public static func argument(_ text: String) -> String {
        let word = quoted(text)
        return text.hasPrefix("-") ? "-- " + word : word
    }

    /// `text` as one shell word: as it is when every character is one the shell leaves alone,
    /// else in single quotes (a single quote inside written `'\''`).
    public static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy(isPlain) { return text }
        return "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// Letters and digits of any script, and the ASCII punctuation no POSIX shell gives a meaning to
    /// inside a word (`~` is left out: a leading one is the home folder).
    private static func isPlain(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            return (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9")
                || "-_.,/+:@%".unicodeScalars.contains(s)
        }
        return s.properties.isAlphabetic || s.properties.numericType != nil
    }
}
