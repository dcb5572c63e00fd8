import FoundationEssentials
import Testing

@testable import FixcastCore

@Suite("GPSError messages")
struct GPSErrorTests {
    @Test(arguments: [
        (0, "0 s"), (89, "89 s"), (90, "1 min"), (5399, "89 min"), (5400, "1 h"), (10_800, "3 h"),
        (172_799, "47 h"), (172_800, "2 d"),
    ])
    func ageText(seconds: Int, text: String) {
        #expect(GPSError.ageText(seconds: seconds) == text)
    }

    @Test func everyMessageIsOneSentenceNamingGPSAndTheAddress() {
        let a = "127.0.0.1:2947"
        let all: [GPSError] = [
            .unreachable(address: a, detail: "x"), .watchRefused(address: a), .connectionLost(address: a),
            .noFixInTime(address: a, attempts: 3, timeoutS: 8), .lostBeforeFix(address: a, attempts: 1, timeoutS: 1.5),
        ]
        for e in all {
            #expect(e.component == .gps)
            #expect(e.message.hasPrefix("gps: "))
            #expect(e.message.hasSuffix("."))
            #expect(e.message.contains(a))
            #expect(e.message.dropLast().contains(". ") == false)
        }
        #expect(GPSError.lostBeforeFix(address: a, attempts: 1, timeoutS: 1.5).message.contains("1 try of 1.5 s"))
    }

    @Test func failuresMapToErrors() {
        #expect(GPSError(.unreachable, address: "h:1") == .unreachable(address: "h:1", detail: nil))
        #expect(
            GPSError(.noFix(attempts: 3, timeoutS: 8), address: "h:1")
                == .noFixInTime(address: "h:1", attempts: 3, timeoutS: 8))
        #expect(
            GPSError(.connectionLost(attempts: 2, timeoutS: 4), address: "h:1")
                == .lostBeforeFix(address: "h:1", attempts: 2, timeoutS: 4))
    }
}
