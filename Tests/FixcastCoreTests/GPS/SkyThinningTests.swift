import FixcastCore
import Testing

/// Which SKY reports are parsed, in virtual time.
@Suite("SKY reports are parsed once per interval")
struct SkyThinningTests {
    static func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(seconds: seconds) }

    /// Plays one SKY report a second (a 1 Hz receiver) for `seconds` and returns when each was parsed.
    static func parsedSeconds(_ thinning: inout SkyThinning, from start: Double, seconds: Int) -> [Double] {
        var parsed: [Double] = []
        for i in 0..<seconds {
            let now = Self.at(start + Double(i))
            if thinning.parses(at: now) {
                thinning.parsed(at: now)
                parsed.append(start + Double(i))
            }
        }
        return parsed
    }

    @Test func theFirstReportIsParsedThenOneEveryFiveSeconds() {
        var thinning = SkyThinning()
        #expect(SkyThinning.defaultIntervalS == 5)
        #expect(Self.parsedSeconds(&thinning, from: 100, seconds: 12) == [100, 105, 110])
    }

    @Test func aReportJustShortOfTheIntervalIsDroppedAndTheNextIsParsed() {
        var thinning = SkyThinning(intervalS: 5)
        thinning.parsed(at: Self.at(10))
        #expect(!thinning.parses(at: Self.at(14.999)))
        #expect(thinning.parses(at: Self.at(15)))
    }

    @Test func aFastReceiverStillParsesOnlyOncePerInterval() {
        // 10 Hz: gpsd may send SKY with every cycle; one in fifty is parsed.
        var thinning = SkyThinning()
        var count = 0
        for i in 0..<100 {
            let now = Self.at(Double(i) / 10)
            if thinning.parses(at: now) {
                thinning.parsed(at: now)
                count += 1
            }
        }
        #expect(count == 2)
    }

    @Test func aGapInReportsParsesTheFirstAfterIt() {
        var thinning = SkyThinning()
        thinning.parsed(at: Self.at(0))
        #expect(thinning.parses(at: Self.at(60)))
    }

    @Test func aResetParsesTheNextReportAtOnce() {
        var thinning = SkyThinning()
        thinning.parsed(at: Self.at(0))
        #expect(!thinning.parses(at: Self.at(1)))
        thinning.reset()
        #expect(thinning.lastParsed == nil)
        #expect(thinning.parses(at: Self.at(1)))
    }

    @Test(arguments: [0.0, -1, .nan, .infinity])
    func anIntervalThatIsNotAPositiveNumberParsesEveryReport(interval: Double) {
        var thinning = SkyThinning(intervalS: interval)
        #expect(thinning.intervalS == 0)
        #expect(Self.parsedSeconds(&thinning, from: 0, seconds: 4) == [0, 1, 2, 3])
    }

    @Test func aClockThatWentBackParsesRatherThanWaiting() {
        var thinning = SkyThinning()
        thinning.parsed(at: Self.at(100))
        #expect(thinning.parses(at: Self.at(50)))
    }
}
