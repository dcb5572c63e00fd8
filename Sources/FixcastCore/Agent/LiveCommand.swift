import FoundationEssentials

/// What a key pressed on the live screen asks for.
public enum LiveCommand: Sendable, Hashable {
    /// `r`: a manual (forced) reading.
    case refresh
    /// `q`, or Ctrl-D: leave, restoring the terminal.
    case quit

    /// The command for one byte read from the terminal in raw mode; nil for any other key.
    public init?(key: UInt8) {
        switch key {
        case UInt8(ascii: "r"), UInt8(ascii: "R"): self = .refresh
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x04: self = .quit
        default: return nil
        }
    }
}
