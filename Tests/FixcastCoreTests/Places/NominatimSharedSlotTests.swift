import FoundationEssentials
import Testing

@testable import FixcastCore

/// The shared (across processes) booking of `NominatimRateGate`.
struct NominatimSharedSlotTests {
    let gate = NominatimRateGate(minimumSpacing: 1.0)

    @Test func nothingStoredGoesAtOnceAndBooksNow() {
        let now = ManualClock().now()
        let booking = gate.sharedSlot(after: nil, now: now)
        #expect(booking.delay == 0)
        #expect(booking.slot == now)
    }

    /// One spacing after the other process's slot, and the allowance for its request leaving late.
    @Test func aRecentRequestOfAnotherProcessIsWaitedFor() {
        let clock = ManualClock()
        let stored = clock.now()
        clock.advance(by: 0.3)
        let booking = gate.sharedSlot(after: stored, now: clock.now())
        #expect(NominatimRateGate.sharedSendAllowance == 0.25)
        #expect(abs(booking.delay - 0.95) < 1e-6)
        #expect(booking.slot == stored.addingTimeInterval(1.25))
    }

    @Test func aRequestOlderThanTheSpacingAndTheAllowanceIsNoReasonToWait() {
        let clock = ManualClock()
        let stored = clock.now()
        clock.advance(by: 1.2)
        #expect(gate.sharedSlot(after: stored, now: clock.now()).delay > 0, "within the allowance: wait")
        clock.advance(by: 0.1)
        #expect(gate.sharedSlot(after: stored, now: clock.now()).delay == 0)
    }

    @Test func anOldRequestIsNoReasonToWait() {
        let clock = ManualClock()
        let stored = clock.now()
        clock.advance(by: 5)
        let booking = gate.sharedSlot(after: stored, now: clock.now())
        #expect(booking.delay == 0)
        #expect(booking.slot == clock.now())
    }

    @Test func aSlotBookedAheadQueuesTheNextProcessBehindIt() {
        let now = ManualClock().now()
        let stored = now.addingTimeInterval(2)  // two processes already queued
        let booking = gate.sharedSlot(after: stored, now: now)
        #expect(abs(booking.delay - 3.25) < 1e-6)
        #expect(booking.slot == stored.addingTimeInterval(1.25))
    }

    @Test func aStoredTimeBeyondTheHorizonIsFromAClockSetBackAndIgnored() {
        let now = ManualClock().now()
        let stored = now.addingTimeInterval(NominatimRateGate.sharedHorizon + 3600)
        let booking = gate.sharedSlot(after: stored, now: now)
        #expect(booking.delay == 0)
        #expect(booking.slot == now)
    }

    @Test func theLatestKeepsTheLaterOfStoredAndFinish() {
        let finish = ManualClock().now()
        #expect(NominatimRateGate.sharedLatest(stored: nil, finished: finish) == finish)
        #expect(NominatimRateGate.sharedLatest(stored: finish.addingTimeInterval(-1), finished: finish) == finish)
        // Another process booked a slot after this answer: keep it.
        let booked = finish.addingTimeInterval(2)
        #expect(NominatimRateGate.sharedLatest(stored: booked, finished: finish) == booked)
        let setBack = finish.addingTimeInterval(NominatimRateGate.sharedHorizon + 1)
        #expect(NominatimRateGate.sharedLatest(stored: setBack, finished: finish) == finish)
    }

    @Test func theStoredTextRoundTrips() {
        let time = Date(timeIntervalSince1970: 1_764_492_000.125)
        let text = NominatimRateGate.sharedStateText(time)
        #expect(NominatimRateGate.sharedStateTime(text) == time)
    }

    @Test(arguments: [nil, "", "soon", "nan", "inf"])
    func anUnreadableStoredTextIsIgnored(_ text: String?) {
        #expect(NominatimRateGate.sharedStateTime(text) == nil)
    }
}
