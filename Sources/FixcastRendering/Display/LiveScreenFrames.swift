import FixcastCore
import FoundationEssentials

/// The live screen's frames, made cheaply: at 1 fix a second only the position line changes, so a
/// frame is rendered whole only when something else it shows may have changed, and otherwise the last
/// frame is kept with its position line rendered anew.
///
/// What else a frame shows depends on the status without the position, the terminal's size, and time
/// only at known moments: the clock (HH:MM) and the day lines' "today" at each wall-clock minute,
/// "updated N min ago" at each whole minute since the weather was fetched, the alert banner when an
/// alert expires. A whole render notes the first of those moments after it (`validUntil`); until then,
/// with the same status and size, the kept frame is the frame `LiveScreen.render` would give (the tests
/// hold them equal over whole drives). So a fix costs no copy of the reading, no alert list aged, and
/// one line rendered: about 20 times less than a whole frame (bench: `fixcast-bench --live`).
package struct LiveScreenFrames {
    /// What the kept frame was rendered from, apart from the position and the time.
    private struct Key: Equatable {
        var status: AgentStatus
        var demo: Bool
        var width: Int
        var height: Int
    }

    private var key: Key?
    private var kept: LiveScreen.Frame?
    /// When the kept frame was rendered: a clock set back renders whole.
    private var renderedAt = Date.distantPast
    /// The first moment after `renderedAt` when a line other than the position line may change.
    private var validUntil = Date.distantPast
    /// The reading's own position, shown while there is no live one (part of the key's reading).
    private var readingPosition: Position?
    /// How many frames were rendered whole (for tests and the bench: kept frames are the cheap path).
    package private(set) var wholeRenders = 0

    package init() {}

    package mutating func frame(
        _ status: AgentStatus, demo: Bool, now: Date, width: Int, height: Int, options: DisplayOptions
    ) -> [String] {
        var rest = status
        rest.position = nil
        let key = Key(status: rest, demo: demo, width: width, height: height)
        if key == self.key, now >= renderedAt, now < validUntil, var frame = kept {
            guard let row = frame.positionRow else { return frame.lines }
            let line = LiveScreen.positionLine(
                status.position ?? readingPosition, fixLostSince: status.fixLostSince,
                parts: ReadingParts(options: options, now: now))
            let finished = LiveScreen.finishedOwnText(line, width: width)
            if finished != frame.lines[row] {
                frame.lines[row] = finished
                kept = frame
            }
            return frame.lines
        }
        let reading = status.reading
        let state = LiveScreen.State(
            reading: reading, position: status.position, fixLostSince: status.fixLostSince,
            problems: status.problems, updating: status.updating, demo: demo)
        let frame = LiveScreen.frame(state, now: now, width: width, height: height, options: options)
        self.key = key
        kept = frame
        renderedAt = now
        validUntil = Self.nextChange(after: now, reading: reading)
        readingPosition = reading?.position
        wholeRenders += 1
        return frame.lines
    }

    /// The first moment after `now` when a frame's lines other than the position line may read
    /// differently for the same status: the next wall-clock minute, the next whole minute of the
    /// weather's age, the next expiry among the alerts shown in the banner.
    static func nextChange(after now: Date, reading: Reading?) -> Date {
        var next = Self.nextMinute(after: now, from: Date(timeIntervalSince1970: 0))
        if let fetched = reading?.weather?.fetchedAt { next = min(next, Self.nextMinute(after: now, from: fetched)) }
        for alert in reading?.alerts?.active ?? [] {
            if let end = alert.expires ?? alert.ends, end > now { next = min(next, end) }
        }
        return next
    }

    /// The first moment after `now` that is a whole number of minutes from `origin`.
    private static func nextMinute(after now: Date, from origin: Date) -> Date {
        let minutes = (now.timeIntervalSince(origin) / 60).rounded(.down)
        guard minutes.isFinite else { return now }  // nothing can be kept: render whole every time
        return origin.addingTimeInterval((minutes + 1) * 60)
    }
}
