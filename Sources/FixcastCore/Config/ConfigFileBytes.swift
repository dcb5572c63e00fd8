/// A config file's bytes as text: UTF-8 only, an optional byte order mark at the start accepted.
///
/// Editors on Windows save "UTF-8 with BOM"; refusing that would be pedantry. Invalid UTF-8 is
/// refused, naming the line, because decoding it leniently would turn a mangled API key or host
/// into U+FFFD characters and a confusing error somewhere else.
public enum ConfigFileBytes {
    /// The first line (1-based) holding invalid UTF-8.
    public struct InvalidUTF8: Error, Sendable, Hashable {
        public let line: Int
    }

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public static func text(_ bytes: [UInt8]) -> Result<String, InvalidUTF8> {
        let body = bytes.starts(with: byteOrderMark) ? bytes.dropFirst(byteOrderMark.count) : bytes[...]
        if let text = String(validating: body, as: UTF8.self) { return .success(text) }
        var line = 1
        for piece in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(validating: piece, as: UTF8.self) == nil { return .failure(InvalidUTF8(line: line)) }
            line += 1
        }
        // Every line is valid on its own yet the whole is not: cannot happen for UTF-8 (a newline
        // byte never sits inside a sequence), but say line 1 rather than accept it.
        return .failure(InvalidUTF8(line: 1))
    }
}
