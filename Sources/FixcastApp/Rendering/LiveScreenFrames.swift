import FixcastCore
import FoundationEssentials

/// The live screen's frames, made cheaply: at 1 fix a second only the position line changes, so a
/// frame is rendered whole only when something else it shows may have changed, and otherwise the last
/// frame is kept with its position line rendered anew.
///
/// What else a frame shows depends on the status without the position, the terminal's size, and time
/// only through minutes: the clock (HH:MM), every "N min ago", and which alerts have expired. So the
/// key is exactly those, and a kept frame is the frame `LiveScreen.render` would give (the tests hold
/// them equal over whole drives). A whole frame costs about 20 times one line (bench: `fixcast-bench
/// --live`), the most of what a person watching the screen costs the battery.
package struct LiveScreenFrames {
    private struct Key: Equatable {
        var status: AgentStatus
        var demo: Bool
        var width: Int
        var height: Int
        /// The wall clock's minute: the clock line and the day lines' "today".
        var minute: Int
        /// Whole minutes since the weather was fetched ("updated N min ago").
        var weatherAge: Int?
        /// The alerts still active at `now` (the banner leaves out those that expired).
        var activeAlerts: Int?
    }

    private var key: Key?
    private var kept: LiveScreen.Frame?

    package init() {}

    package mutating func frame(
        _ status: AgentStatus, demo: Bool, now: Date, width: Int, height: Int, options: DisplayOptions
    ) -> [String] {
        let state = LiveScreen.State(
            reading: status.reading, position: status.position, fixLostSince: status.fixLostSince,
            problems: status.problems, updating: status.updating, demo: demo)
        var rest = status
        rest.position = nil
        let seconds = now.timeIntervalSince1970
        let key = Key(
            status: rest, demo: demo, width: width, height: height,
            minute: Int(clamping: seconds / 60, to: Int.min...Int.max, rounding: .down),
            weatherAge: status.reading?.weather.map {
                Int(clamping: now.timeIntervalSince($0.fetchedAt) / 60, to: Int.min...Int.max, rounding: .down)
            },
            activeAlerts: status.reading?.alerts.map { $0.aged(to: now, stale: $0.stale).active.count })
        if key == self.key, var frame = kept, let row = frame.positionRow {
            let line = LiveScreen.positionLine(state, parts: ReadingParts(options: options, now: now))
            frame.lines[row] = LiveScreen.finished(line, width: width)
            kept = frame
            return frame.lines
        }
        let frame = LiveScreen.frame(state, now: now, width: width, height: height, options: options)
        self.key = key
        kept = frame
        return frame.lines
    }
}
