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
}
