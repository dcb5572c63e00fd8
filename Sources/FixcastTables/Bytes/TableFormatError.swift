/// Why bytes are not a usable table (places.bin or its text source, alert-areas.bin, basemap.bin), as
/// the tail of a sentence ("the file is truncated ..."): the domain wrappers put it in their own error,
/// which names the component and what to do. `line` is the text table's line, 0 for a binary image.
public struct TableFormatError: Error, Sendable, Hashable {
    public let line: Int
    public let reason: String

    public init(line: Int = 0, reason: String) {
        self.line = line
        self.reason = reason
    }
}
