import Foundation
import Testing

@testable import FixcastCore

@Suite struct ServerExpiryTests {
    let received = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func standsFromItsAnswerUntilItExpires() {
        let expires = received.addingTimeInterval(30 * 60)
        #expect(ServerExpiry.stands(expires, receivedAt: received, now: received))
        #expect(ServerExpiry.stands(expires, receivedAt: received, now: expires.addingTimeInterval(-1)))
        #expect(!ServerExpiry.stands(expires, receivedAt: received, now: expires))
        #expect(!ServerExpiry.stands(nil, receivedAt: received, now: received))
    }

    @Test func anHourAheadAtMost() {
        let hour = received.addingTimeInterval(ServerExpiry.maximumAheadS)
        #expect(ServerExpiry.stands(hour, receivedAt: received, now: received.addingTimeInterval(60)))
        let further = hour.addingTimeInterval(1)
        #expect(!ServerExpiry.stands(further, receivedAt: received, now: received.addingTimeInterval(60)))
        // Not even once the clock has come within the hour: the header was broken when it came.
        #expect(!ServerExpiry.stands(further, receivedAt: received, now: further.addingTimeInterval(-60)))
    }

    @Test func aClockSetBackSinceTheAnswerDoesNotKeepIt() {
        let expires = received.addingTimeInterval(30 * 60)
        #expect(!ServerExpiry.stands(expires, receivedAt: received, now: received.addingTimeInterval(-1)))
    }

    /// The answer's lifetime on the server's clock (`Expires` − `Date`) counts from when it came on
    /// this one: a clock 20 minutes fast no longer asks again 20 minutes early, nor a clock 40 minutes
    /// fast at every request.
    @Test func expiresIsTakenOnThisMachinesClock() {
        let serverNoon = Date(timeIntervalSince1970: 1_799_992_800)
        let serverExpires = serverNoon.addingTimeInterval(30 * 60)
        for skew: Double in [0, 20 * 60, 40 * 60, -15 * 60] {
            let receivedHere = serverNoon.addingTimeInterval(skew)
            let local = ServerExpiry.onLocalClock(
                expires: serverExpires, serverDate: serverNoon, receivedAt: receivedHere)
            #expect(local == receivedHere.addingTimeInterval(30 * 60), "skew \(skew)")
            #expect(ServerExpiry.stands(local, receivedAt: receivedHere, now: receivedHere.addingTimeInterval(25 * 60)))
        }
        // Without a Date, or a lifetime beyond an hour: Expires as sent.
        #expect(
            ServerExpiry.onLocalClock(expires: serverExpires, serverDate: nil, receivedAt: received) == serverExpires)
        // Expired when sent: stale from when it came (a clock 30 minutes slow served it for 30 minutes).
        #expect(
            ServerExpiry.onLocalClock(expires: serverNoon, serverDate: serverExpires, receivedAt: received)
                == received)
        let far = serverNoon.addingTimeInterval(2 * 3600)
        #expect(ServerExpiry.onLocalClock(expires: far, serverDate: serverNoon, receivedAt: received) == far)
        #expect(ServerExpiry.onLocalClock(expires: nil, serverDate: serverNoon, receivedAt: received) == nil)
    }
}
