/// What to do with a weather request that arrives while another is in flight (DESIGN.md §4, seed
/// cause 3).
///
/// Joining the one in flight avoids duplicate network requests; but a forced request (a person asked)
/// that merely joined an ordinary one would get that one's possibly cached answer, and the person's
/// gesture would do nothing. So a forced request joining an ordinary one waits for it and then forces
/// a fresh one.
public enum RequestCoalescer {
    public enum Decision: Sendable, Equatable {
        /// Nothing in flight: start a request.
        case start
        /// Wait for the one in flight and take its answer.
        case join
        /// Wait for the ordinary one in flight, then run a forced one.
        case joinThenForce
    }

    /// `inFlightForce`: nil when nothing is in flight, else whether the one in flight is forced.
    public static func decide(incomingForce: Bool, inFlightForce: Bool?) -> Decision {
        guard let inFlightForce else { return .start }
        return incomingForce && !inFlightForce ? .joinThenForce : .join
    }
}
