import FixcastCore
import FixcastText
import FoundationEssentials

/// The human forms of alerts: the lines of `fixcast now`, the full text of `fixcast alerts`, and
/// the live screen's banner. Pure (time and options passed in). Colour (ANSI SGR by severity) only
/// when the caller says stdout is a terminal; the texts themselves were cleaned of control
/// characters when decoded, so nothing from a feed can drive the terminal.
public enum AlertDisplay {
    /// Where no source covers the position; never shown as "no alerts". Says why (`NotCoveredCause`):
    /// names the country when it is known, says when no country could be told or the lookup is off, and
    /// says where alerts do exist.
    public static func notCoveredLine(_ report: AlertReport) -> String {
        let summary = AlertCoverage.coverageSummary
        switch report.notCoveredBecause {
        case .sourceOff?:
            return "Alerts: not looked up: alerts.source is \"none\"."
        case .countryUnknown?:
            return "Alerts: not covered here: no place in fixcast's table is near enough to tell the country, "
                + "so no source is chosen (\(summary)); set alerts.source to ask one anyway."
        case .country(let code)?:
            let here = TerminalText.name(code).isEmpty ? "" : " (\(TerminalText.name(code)))"
            return "Alerts: not covered here\(here): no alert source of fixcast covers this country (\(summary))."
        case nil:
            return "Alerts: not covered here: no alert source of fixcast covers this position (\(summary))."
        }
    }

    /// The severity as a tag: `SEVERE` in English (CAP's word, in capitals as warnings write it), the
    /// severity's own word in the other languages (`AlertSeverity.word`).
    static func tag(_ s: AlertSeverity, _ language: Language) -> String {
        language == .en ? s.rawValue.uppercased() : s.word(language)
    }

    /// SGR per severity: extreme bold red, severe red, moderate yellow, minor cyan, unknown plain.
    static func sgr(_ s: AlertSeverity) -> String? {
        switch s {
        case .extreme: return "1;31"
        case .severe: return "31"
        case .moderate: return "33"
        case .minor: return "36"
        case .unknown: return nil
        }
    }

    static func coloured(_ text: String, _ s: AlertSeverity, colour: Bool) -> String {
        guard colour, let code = sgr(s) else { return text }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }

    /// `Sat 20 20:00` in local time.
    static func when(_ date: Date, options: DisplayOptions) -> String {
        let labels = options.labels
        let days = DisplayTime.localDays(date, options.utcOffset)
        return labels.weekdays[DisplayTime.weekdayIndex(days: days)] + " " + String(DisplayTime.dayOfMonth(days: days))
            + " "
            + DisplayTime.clock(date, options.utcOffset)
    }

    /// `[SEVERE] Excessive Heat Warning, from Fri 19 10:00, until Sat 20 20:00 — Northwest Valley; …`.
    /// "from" only for an alert not yet in force at `now`; the area cut to `areaLimit` columns.
    public static func line(
        _ a: Alert, options: DisplayOptions, colour: Bool = false, now: Date? = nil, areaLimit: Int? = nil
    ) -> String {
        // The feed's text is cleaned here, before the colour codes go in (the line is not cleaned again).
        var text =
            coloured("[\(tag(a.severity, options.language))]", a.severity, colour: colour) + " "
            + TerminalText.line(a.event)
        let labels = options.labels
        if let onset = a.onset, now.map({ onset > $0 }) ?? true {
            text += ", \(labels.from) " + when(onset, options: options)
        }
        if let until = a.ends ?? a.expires { text += ", \(labels.until) " + when(until, options: options) }
        if let area = a.area {
            // Cut in columns: 40 ideographs are 80 of them.
            let clean = TerminalText.line(area)
            text += " — " + (areaLimit.map { TextColumns.truncate(clean, to: $0) } ?? clean)
        }
        return text
    }

    /// The block of `fixcast now`: nothing when alerts are off or failed (the errors say why).
    public static func readingLines(_ report: AlertReport?, now: Date, options: DisplayOptions, colour: Bool = false)
        -> [String]
    {
        guard let report else { return [] }
        guard report.covered else { return [notCoveredLine(report)] }
        let labels = options.labels
        let from = report.source.map { " (\($0.displayName)\(report.stale ? ", " + labels.alertsStale : ""))" } ?? ""
        guard !report.active.isEmpty else { return [labels.alerts + from + ": " + labels.noneActive] }
        // One line each: a long list of zones is cut, `fixcast alerts` has it whole.
        return [labels.alerts + from + ":"]
            + report.active.map { "  " + line($0, options: options, colour: colour, now: now, areaLimit: 40) }
    }

    /// The whole text of `fixcast alerts`: each alert with headline, area, description and instruction.
    public static func detail(_ report: AlertReport, now: Date, options: DisplayOptions, colour: Bool = false) -> String
    {
        guard report.covered else { return notCoveredLine(report) + "\n" }
        var lines: [String] = []
        let labels = options.labels
        let source = report.source?.displayName ?? "?"
        let checked = report.fetchedAt.map { ", \(labels.checked) " + when($0, options: options) } ?? ""
        let stale = report.stale ? " — " + labels.alertsStaleNote : ""
        if report.active.isEmpty {
            lines.append("\(labels.noActiveAlertsHere) (\(source)\(checked))\(stale).")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append(
            "\(labels.activeAlertsHere(report.active.count)) (\(source)\(checked))\(stale):"
        )
        for a in report.active {
            lines.append("")
            lines.append(line(a, options: options, colour: colour))
            if let h = a.headline { lines.append("  " + h) }
            var facts: [String] = []
            if let c = a.certainty { facts.append(labels.alertCertainty + ": " + c) }
            if let u = a.urgency { facts.append(labels.alertUrgency + ": " + u) }
            if let e = a.expires { facts.append(labels.alertMessageExpires + " " + when(e, options: options)) }
            if !facts.isEmpty { lines.append("  " + facts.joined(separator: ", ")) }
            if let d = a.description {
                lines.append("")
                lines += d.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            }
            if let i = a.instruction {
                lines.append("")
                lines += i.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
            }
            if let u = a.url { lines.append("  " + u) }
        }
        if report.omitted > 0 {
            lines.append("")
            lines.append(
                "\(CountedNoun.phrase(report.omitted, "less severe alert")) not shown (fixcast keeps the \(AlertReport.maxAlerts) most severe)."
            )
        }
        if let s = report.source, s == .meteoalarm || s == .eccc {
            lines.append("")
            lines.append("Source: " + s.credit + ".")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line for the top of the live screen while an alert is active, most severe first:
    /// `! SEVERE Excessive Heat Warning · UNKNOWN Air Quality Alert`, or `… +2 more` when they don't
    /// fit `width`. nil when there is nothing active. With `now`, alerts that have expired since the
    /// reading are left out, so the banner goes when the last alert does, not at the next reading.
    public static func banner(_ report: AlertReport?, width: Int, now: Date? = nil, language: Language = .en)
        -> String?
    {
        guard var report, report.covered, width > 0 else { return nil }
        if let now { report = report.aged(to: now, stale: report.stale) }
        guard !report.active.isEmpty else { return nil }
        let items = report.active.map { tag($0.severity, language) + " " + $0.event }
        let labels = DisplayLabels(language)
        let prefix = report.stale ? "! (\(labels.alertsStale)) " : "! "
        func moreText(_ n: Int) -> String { language == .en ? " +\(n) more" : " " + labels.more(n) }
        var text = prefix + items[0]
        var shown = 1
        for (i, item) in items.enumerated().dropFirst() {
            let rest = items.count - i - 1
            let candidate = text + " · " + item
            let tail = rest > 0 ? moreText(rest) : ""
            guard TextColumns.width(candidate + tail) <= width else { break }
            text = candidate
            shown += 1
        }
        let hidden = items.count - shown
        if hidden > 0 {
            let more = moreText(hidden)
            text = TextColumns.truncate(text, to: max(1, width - TextColumns.width(more))) + more
        }
        return TextColumns.truncate(text, to: width)
    }
}
