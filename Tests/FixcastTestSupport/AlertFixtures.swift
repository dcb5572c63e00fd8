import Foundation

/// The recorded alert responses, and copies of them moved in time.
///
/// The recordings are old (Fixtures/api/ALERTS-NOTE.md): every onset/expires/ends is long past, and
/// fixcast rightly drops expired alerts. In-process tests set their clock to the response's own time;
/// tests of the binary (which reads the real clock) serve a copy in which EVERY timestamp is moved by
/// the same offset, so that the response's reference time (NWS `updated`, MetAlerts `lastChange`)
/// becomes `now`: the alerts keep their relative order and lengths, and "expired are dropped" is
/// untouched.
enum AlertFixtures {
    static let nwsPhoenix = TestPaths.fixture("api/nws-alerts-active-point-phoenix.json")
    static let nwsEmpty = TestPaths.fixture("api/nws-alerts-active-point-nyc-empty.json")
    static let metAlertsVestland = TestPaths.fixture("api/metalerts-current-vestland-coast.json")
    static let meteoAlarmFrance = TestPaths.fixture("api/meteoalarm-atom-france.xml")
    static let meteoAlarmUK = TestPaths.fixture("api/meteoalarm-atom-united-kingdom.xml")
    static let ecccToronto = TestPaths.fixture("api/eccc-weather-alerts-toronto.json")
    /// The responses' own times.
    static let nwsPhoenixUpdated = "2024-07-18T19:50:06Z"
    static let metAlertsLastChange = "2025-06-04T18:38:08Z"
    static let meteoAlarmFranceUpdated = "2022-12-08T00:36:08Z"
    static let meteoAlarmUKUpdated = "2022-12-08T00:15:57Z"
    static let ecccTimeStamp = "2026-03-06T02:03:41Z"

    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// A copy of `path` (in `dir`) with every ISO 8601 time moved by `now - reference`, written in UTC.
    static func shifted(_ path: String, reference: String, to now: Date = Date(), in dir: URL) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let offset = now.timeIntervalSince(date(reference))
        // Fractional seconds (ECCC's ".795Z", MeteoAlarm's feed `updated`) are matched and dropped.
        let pattern = try NSRegularExpression(
            pattern: #"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})"#)
        let parser = ISO8601DateFormatter()
        let writer = ISO8601DateFormatter()
        writer.timeZone = TimeZone(secondsFromGMT: 0)
        var out = ""
        var last = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text), let whole = Range(match.range(at: 1), in: text),
                let zone = Range(match.range(at: 2), in: text),
                let d = parser.date(from: String(text[whole]) + String(text[zone]))
            else {
                continue
            }
            out += text[last..<range.lowerBound]
            out += writer.string(from: d.addingTimeInterval(offset))
            last = range.upperBound
        }
        out += text[last...]
        let target = dir.appendingPathComponent("shifted-" + URL(fileURLWithPath: path).lastPathComponent)
        try out.write(to: target, atomically: true, encoding: .utf8)
        return target.path
    }
}
