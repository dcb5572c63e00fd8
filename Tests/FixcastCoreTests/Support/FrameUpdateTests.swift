import FixcastCore
import Testing

@Suite struct FrameUpdateTests {
    @Test func theFirstFrameIsWrittenWhole() {
        #expect(FrameUpdate.bytes(from: nil, to: ["a", "b"]) == "\u{1B}[Ha\u{1B}[K\r\nb\u{1B}[K\u{1B}[J")
    }

    @Test func anUnchangedFrameWritesNothing() {
        #expect(FrameUpdate.bytes(from: ["a", "b", "c"], to: ["a", "b", "c"]) == nil)
    }

    @Test func onlyTheChangedLinesAreWrittenAtTheirRows() {
        let bytes = FrameUpdate.bytes(from: ["title", "pos 1", "wx", "age 1"], to: ["title", "pos 2", "wx", "age 2"])
        #expect(bytes == "\u{1B}[2;1Hpos 2\u{1B}[K\u{1B}[4;1Hage 2\u{1B}[K")
    }

    @Test func aFrameOfAnotherHeightIsWrittenWhole() {
        #expect(FrameUpdate.bytes(from: ["a"], to: ["a", "b"]) == FrameUpdate.whole(["a", "b"]))
    }
}
