import FixcastCore
import FixcastText
import Testing

/// Issue 11 item 1: a server's reason quoted inside one of fixcast's sentences (moved out of the
/// terminal text tests when `TerminalText` went to FixcastText; `ErrorText` is the domain's).
@Suite struct ErrorTextTests {
    @Test("a server's reason ending in a full stop gets no second stop or \".;\" in the sentence")
    func clauseDropsTrailingStop() {
        #expect(
            ErrorText.clause("Latitude must be in range of -90 to 90°. Given: 100.")
                == "Latitude must be in range of -90 to 90°. Given: 100")
        #expect(ErrorText.clause("Invalid API key.  \n") == "Invalid API key")
        #expect(ErrorText.clause("bad\u{1B}[2J reason") == "bad\\u{1B}[2J reason")
        #expect(ErrorText.clause("no stop") == "no stop")
    }

    /// An error body that is not JSON is searched for its reason in its first 4 KiB only: a 2 MiB page
    /// (the body cap) was turned whole into characters, tens of MB on a Pi, for a reason that is never
    /// that far in.
    @Test func aReasonIsLookedForAtTheStartOfABodyOnly() {
        let padding = [UInt8](repeating: UInt8(ascii: "x"), count: 2 << 20)
        let early = Array("{\"error\":true,\"reason\":\"Bad\nlatitude\"".utf8) + padding
        #expect(OpenMeteoDecoder.errorReason(early) == "Bad latitude")
        let late = padding + Array("\"reason\":\"far in\"".utf8)
        #expect(OpenMeteoDecoder.errorReason(late) == nil)
    }
}
