import FixcastCore
import Testing

@Suite struct FrameUpdateTests {
    @Test func theFirstFrameIsWrittenWhole() {
        #expect(FrameUpdate.bytes(from: nil, to: ["a", "b"]) == "\u{1B}[H\u{1B}[Ka\r\n\u{1B}[Jb")
    }

    @Test func anUnchangedFrameWritesNothing() {
        #expect(FrameUpdate.bytes(from: ["a", "b", "c"], to: ["a", "b", "c"]) == nil)
    }

    @Test func onlyTheChangedLinesAreWrittenAtTheirRows() {
        let bytes = FrameUpdate.bytes(from: ["title", "pos 1", "wx", "age 1"], to: ["title", "pos 2", "wx", "age 2"])
        #expect(bytes == "\u{1B}[2;1H\u{1B}[Kpos 2\u{1B}[4;1H\u{1B}[Kage 2")
    }

    @Test func aFrameOfAnotherHeightIsWrittenWhole() {
        #expect(FrameUpdate.bytes(from: ["a"], to: ["a", "b"]) == FrameUpdate.whole(["a", "b"]))
    }

    /// A line as wide as the terminal keeps its last character on a terminal that erases from the
    /// column of a pending wrap (xterm, the Linux console): the clock's last digit, a `…`.
    @Test func fullWidthLinesKeepTheirLastColumnOnAnXtermLikeScreen() {
        let first = ["title      14:05", "position  52.5 N", "weather  cloudy…", "────────────────"]
        var screen = PendingWrapScreen(width: 16, height: 4)
        screen.feed(FrameUpdate.whole(first))
        #expect(screen.rows == first)
        var next = first
        next[0] = "title      14:06"
        next[1] = "position  52.6 N"
        screen.feed(FrameUpdate.bytes(from: first, to: next) ?? "")
        #expect(screen.rows == next)
    }

    /// A shorter frame after a taller one, and a shorter line after a longer one, leave nothing behind.
    @Test func whatTheOldFrameLeftIsCleared() {
        var screen = PendingWrapScreen(width: 10, height: 4)
        screen.feed(FrameUpdate.whole(["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"]))
        screen.feed(FrameUpdate.whole(["x", "y"]))
        #expect(screen.rows == ["x", "y", "", ""])
        screen.feed(FrameUpdate.bytes(from: ["x", "y"], to: ["x", "z"]) ?? "")
        #expect(screen.rows == ["x", "z", "", ""])
    }
}

/// A screen that follows xterm's rules for what `FrameUpdate` writes: printing into the last column
/// leaves the cursor there with a wrap pending; CR, LF and CUP end it; `EL 0` and `ED 0` erase from the
/// cursor's column, that column included.
struct PendingWrapScreen {
    let width: Int
    let height: Int
    private var cells: [[Character]]
    private var row = 0
    private var column = 0
    private var wrapPending = false

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = Array(repeating: Array(repeating: " ", count: width), count: height)
    }

    /// Each row, trailing blanks dropped.
    var rows: [String] {
        cells.map { String(String($0).reversed().drop { $0 == " " }.reversed()) }
    }

    mutating func feed(_ bytes: String) {
        // Scalars, not Characters: "\r\n" is one Character in Swift.
        var chars = Array(bytes.unicodeScalars.map(Character.init))[...]
        while let ch = chars.popFirst() {
            switch ch {
            case "\u{1B}":
                guard chars.popFirst() == "[" else { continue }
                var parameters = ""
                while let next = chars.popFirst() {
                    if next.isLetter {
                        control(next, parameters.split(separator: ";").compactMap { Int($0) })
                        break
                    }
                    parameters.append(next)
                }
            case "\r":
                column = 0
                wrapPending = false
            case "\n":
                row = min(row + 1, height - 1)
                wrapPending = false
            default:
                if wrapPending {
                    column = 0
                    row = min(row + 1, height - 1)
                    wrapPending = false
                }
                cells[row][column] = ch
                if column == width - 1 { wrapPending = true } else { column += 1 }
            }
        }
    }

    private mutating func control(_ final: Character, _ parameters: [Int]) {
        wrapPending = false
        switch final {
        case "H":
            row = min(max((parameters.first ?? 1) - 1, 0), height - 1)
            column = min(max((parameters.count > 1 ? parameters[1] : 1) - 1, 0), width - 1)
        case "K":
            for c in column..<width { cells[row][c] = " " }
        case "J":
            for c in column..<width { cells[row][c] = " " }
            for r in (row + 1)..<height { cells[r] = Array(repeating: " ", count: width) }
        default:
            break
        }
    }
}
