import Testing

@testable import FixcastText

@Suite struct NearestWordTests {
    static let commands = ["run", "now", "forecast", "search", "export", "status", "alerts", "ahead", "trips"]

    @Test func aSlipOfTheFingerFindsTheWord() {
        #expect(NearestWord.to("nwo", among: Self.commands) == "now")  // two neighbours swapped
        #expect(NearestWord.to("exprt", among: Self.commands) == "export")  // one dropped
        #expect(NearestWord.to("forecasts", among: Self.commands) == "forecast")  // one added
        #expect(NearestWord.to("statis", among: Self.commands) == "status")  // one changed
        #expect(NearestWord.to("NOW", among: Self.commands) == nil, "the word itself, in capitals, is not a slip")
        #expect(NearestWord.to("Alrets", among: Self.commands) == "alerts")
        #expect(NearestWord.to("--jsn", among: ["--json", "--db", "--at"]) == "--json")
        #expect(NearestWord.to("wether", among: ["gps", "weather", "places"]) == "weather")
    }

    @Test func aGuessIsNotMade() {
        #expect(NearestWord.to("xyz", among: Self.commands) == nil)
        #expect(NearestWord.to("r", among: Self.commands) == nil)  // "run" is 2 away from a 1-letter word
        #expect(NearestWord.to("weather", among: Self.commands) == nil)
        #expect(NearestWord.to("", among: Self.commands) == nil)
        #expect(NearestWord.to("now", among: []) == nil)
        // Equally near two: neither.
        #expect(NearestWord.to("cat", among: ["bat", "hat"]) == nil)
        #expect(NearestWord.to("cat", among: ["bat", "bat"]) == "bat")
        #expect(NearestWord.to(String(repeating: "x", count: 100_000), among: Self.commands) == nil)
    }

    @Test func distanceCountsEachEditOnce() {
        func d(_ a: String, _ b: String) -> Int { NearestWord.distance(Array(a), Array(b)) }
        #expect(d("", "abc") == 3)
        #expect(d("abc", "") == 3)
        #expect(d("abc", "abc") == 0)
        #expect(d("ab", "ba") == 1)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("ca", "abc") == 3)  // optimal string alignment: no edit of a swapped pair
    }
}
