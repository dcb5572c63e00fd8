import Testing

@testable import FixcastCore

@Suite struct RequestCoalescerTests {
    @Test(arguments: [
        (false, nil as Bool?, RequestCoalescer.Decision.start),
        (true, nil, .start),
        (false, false, .join),
        (false, true, .join),
        (true, true, .join),
        (true, false, .joinThenForce),
    ])
    func decide(incoming: Bool, inFlight: Bool?, expected: RequestCoalescer.Decision) {
        #expect(RequestCoalescer.decide(incomingForce: incoming, inFlightForce: inFlight) == expected)
    }
}
