import FixcastCore
import FixcastText
import FoundationEssentials

/// One frame of the live screen of `fixcast run`: exactly `height` lines, none wider than `width`
/// columns, for `TerminalSession.draw`.
///
/// Top: title (with a "demo data" label when replaying), place, position with fix quality (or
/// "no fix since …"), current weather, today. Middle: the next days and alerts, as many as fit.
/// Bottom, always visible: "updated N min ago" (with cached/stale), the status line for gpsd,
/// network and API problems (two rows for a long one, where the top keeps all its rows), and the
/// keys. Pure, so a frame is testable without a terminal.
public enum LiveScreen {
    /// What the screen shows; the agent keeps it up to date and renders on every change or tick.
    public struct State: Sendable, Hashable {
        /// The reading shown: at launch the last stored one (with its age), then each fresh one.
        public var reading: Reading?
        /// The latest position: the live fix, or the last one while the fix is lost.
        public var position: Position?
        /// Since when there is no fix (nil while the fix is live).
        public var fixLostSince: Date?
        /// Current problems for the status line (gpsd down, network, API, disk); most important first.
        public var problems: [ReadingIssue]
        /// A reading is in flight.
        public var updating: Bool
        /// The demo is replaying (`FIXCAST_DEMO_LABEL` set, as scripts/demo.sh does): label the data as not real.
        public var demo: Bool

        public init(
            reading: Reading? = nil, position: Position? = nil, fixLostSince: Date? = nil,
            problems: [ReadingIssue] = [],
            updating: Bool = false, demo: Bool = false
        ) {
            self.reading = reading
            self.position = position
            self.fixLostSince = fixLostSince
            self.problems = problems
            self.updating = updating
            self.demo = demo
        }
    }

    public static func render(
        _ state: State, now: Date, width: Int, height: Int, options: DisplayOptions = DisplayOptions()
    ) -> [String] {
        frame(state, now: now, width: width, height: height, options: options).lines
    }

    /// A rendered frame and the row of its position line (nil when the frame is too short to show it),
    /// so that a new fix can redraw that one line (`LiveScreenFrames`).
    public struct Frame: Sendable, Hashable {
        public var lines: [String]
        public var positionRow: Int?
    }

    /// One line as the frame holds it: cleaned of control characters and cut to the width.
    static func finished(_ line: String, width: Int) -> String {
        TextColumns.truncate(TerminalText.line(line), to: width)
    }

    /// A line made only of fixcast's own words and numbers (the position line: coordinates, fix
    /// quality, ages, the display language's labels), cut to the width. It holds no text from outside,
    /// so it needs no cleaning (`finished` would give the same line); redrawn at every fix, it skips it.
    static func finishedOwnText(_ line: String, width: Int) -> String {
        TextColumns.truncate(line, to: width)
    }

    public static func frame(
        _ state: State, now: Date, width: Int, height: Int, options: DisplayOptions = DisplayOptions()
    ) -> Frame {
        guard width > 0, height > 0 else { return Frame(lines: [], positionRow: nil) }
        let parts = ReadingParts(options: options, now: now)
        let labels = parts.labels
        let rule = String(repeating: "─", count: width)

        var head: [String] = []
        // While an alert is active it is the first thing on the screen.
        if let banner = AlertDisplay.banner(state.reading?.alerts, width: width, now: now, language: options.language) {
            head.append(banner)
        }
        let title = labels.liveTitle + (state.demo ? " " + labels.demoData : "")
        head.append(TextColumns.spread(title, DisplayTime.clock(now, options.utcOffset), in: width))
        head.append(parts.placeLine(state.reading?.place))
        let positionIndex = head.count
        head.append(positionLine(state, parts: parts))
        head.append(rule)

        var middle: [String] = []
        // Its days as of now: past midnight, "Today" is the new day's, not the one it was fetched on
        // (the frame is rendered whole at each minute, so at midnight too).
        let shownWeather = state.reading?.weather.map { WeatherDayShift.shown($0, at: now) }
        if let weather = shownWeather {
            head.append(parts.conditionsLine(weather.current))
            head.append(parts.humidityLine(weather.current))
            head.append(parts.windLine(weather.current))
            head.append(parts.precipitationLine(weather.current))
            head.append(parts.todayLine(weather.today))
            middle += weather.alerts.map(parts.alertLine)
        } else {
            head.append(labels.noWeather)
        }
        // Weather ahead (AheadDisplay): its headline and the next samples, before the days. Its own
        // request: shown whether or not the weather here could be had.
        if let ahead = state.reading?.ahead {
            middle.append(rule)
            middle += AheadDisplay.screenLines(ahead, options: options, width: width)
        }
        if let days = shownWeather?.daily, !days.isEmpty {
            middle.append(rule)
            middle += parts.dayLines(days)
        }

        var foot: [String] = []
        var freshness = state.reading?.weather.map(parts.freshnessLine) ?? ""
        if state.updating { freshness += (freshness.isEmpty ? "" : " · ") + labels.updating }
        foot.append(freshness)
        // A second status row only where the head (position, current weather, today) keeps all its
        // rows above the foot: it costs the days and alerts of the middle, never the weather now.
        let twoStatusRows = height - 4 >= head.count
        foot += statusLines(state.problems, labels: labels, width: width, maxLines: twoStatusRows ? 2 : 1)
        foot.append(labels.keys)

        let room = max(0, height - foot.count)
        var body = Array((head + middle).prefix(room))
        body += Array(repeating: "", count: room - body.count)
        let all = body + foot
        let frame = Array(all.suffix(height))
        let cut = all.count - frame.count
        let row = positionIndex < room && positionIndex >= cut ? positionIndex - cut : nil
        // Names, alert titles and problem texts come from outside: no control character may
        // reach the terminal raw (TerminalText), and a line break would shift the whole frame.
        return Frame(lines: frame.map { finished($0, width: width) }, positionRow: row)
    }

    /// `52.5200° N, 13.4138° E · GPS 3D fix, 9 sats, just now`, or the last position with
    /// `no fix since 14:05 (18 min ago)`, or "waiting for a fix".
    static func positionLine(_ state: State, parts: ReadingParts) -> String {
        positionLine(state.position ?? state.reading?.position, fixLostSince: state.fixLostSince, parts: parts)
    }

    /// The position line of `position` (the live fix, else the reading's), without a `State`: what a
    /// kept frame redraws at each fix.
    static func positionLine(_ position: Position?, fixLostSince: Date?, parts: ReadingParts) -> String {
        let labels = parts.labels
        guard let position else { return labels.waitingForFix }
        // One string grown in place, room for the longest line reserved once: this runs at every fix.
        var line = ""
        line.reserveCapacity(96)
        ReadingParts.appendCoordinate(position.coordinate, to: &line)
        line += " · "
        if let lost = fixLostSince {
            let age = labels.age(
                seconds: Int(clamping: parts.now.timeIntervalSince(lost), to: Int.min...Int.max, rounding: .down))
            line += labels.noFixSince(DisplayTime.clock(lost, parts.options.utcOffset), age)
            return line
        }
        parts.appendPositionSource(position, to: &line)
        return line
    }

    /// The first problem (it names its component and what to do), with how many more flush right on
    /// its first row; "status: ok" without any. Up to `maxLines` rows, broken at spaces: a sentence
    /// ends with what to do, which one row cut at 80 columns lost ("gps: the connection to gpsd at
    /// 127.0.0.1:2947 was lost; fixcast reconnects b…").
    static func statusLines(_ problems: [ReadingIssue], labels: DisplayLabels, width: Int, maxLines: Int)
        -> [String]
    {
        guard let first = problems.first else { return [labels.statusOK] }
        // Cleaned before it is measured: a tab is a column once it is a space.
        // Trailing spaces (a message's last newline, made a space) would make a blank second row.
        var text = TerminalText.line(ReadingParts.issueLine(first))
        while text.last == " " { text.removeLast() }
        let more = problems.count > 1 ? labels.more(problems.count - 1) : nil
        let moreRoom = more.map { TextColumns.width($0) + 1 } ?? 0
        guard let more, width > moreRoom + 1 else {
            return TextColumns.wrap(text, to: width, indent: "  ", maxLines: maxLines)
        }
        // The first row leaves room for the count; the rows after it have the whole width.
        let firstRow = TextColumns.wrap(text, to: width - moreRoom, indent: "", maxLines: maxLines)[0]
        let rest = text.dropFirst(firstRow.count).drop { $0 == " " }
        // The first row is the text's first words unless wrap had to cut a word wider than the row.
        guard maxLines > 1, text.hasPrefix(firstRow), !rest.isEmpty else {
            return [TextColumns.spread(firstRow, more, in: width)]
        }
        return [TextColumns.spread(firstRow, more, in: width)]
            + TextColumns.wrap("  " + rest, to: width, indent: "  ", maxLines: maxLines - 1)
    }
}
