import FixcastCore
import FixcastText

/// The live screen's sample lines under the ahead headline, in columns as `fixcast ahead`'s table
/// has them: the lead and the distance flush right, the place padded, then temperature and rain
/// flush right and the wind along the way, so a long place name moves nothing after it. The place
/// column gives way to keep each line within the terminal (cut with "…"), down to `minPlaceColumns`.
enum AheadScreenSamples {
    /// A place cut shorter than this says too little; past it the line's end is cut instead.
    static let minPlaceColumns = 8

    static func lines(_ samples: [AheadForecast.Sample], basis: AheadBasis, options: DisplayOptions, width: Int)
        -> [String]
    {
        let u = options.formatter
        let w = AheadWords(options.language)
        let winds = samples.map { wind($0.headwindMps, options) }
        let wordWidth = winds.map { TextColumns.width($0.word) }.max() ?? 0
        let speedWidth = winds.map { TextColumns.width($0.speed) }.max() ?? 0
        // Columns: lead, distance (none when staying here), place, temperature, rain, wind.
        var rows = samples.enumerated().map { i, s -> [String] in
            let wind =
                winds[i].word.isEmpty
                ? ""
                : TextColumns.padRight(winds[i].word, to: wordWidth) + " "
                    + TextColumns.padLeft(winds[i].speed, to: speedWidth)
            return [
                "+" + w.duration(minutes: s.minutes), u.distance(km: s.distanceKm),
                s.place.map(TerminalText.line) ?? DisplayUnits.unknown, u.temperature(s.temperatureC),
                AheadDisplay.rain(s, options), wind,
            ]
        }
        var rightAligned: Set<Int> = [0, 1, 3, 4]
        var place = 2
        if basis == .stationary {
            rows = rows.map {
                var r = $0
                r.remove(at: 1)
                return r
            }
            rightAligned = [0, 2, 3]
            place = 1
        }
        guard let columns = rows.first?.count else { return [] }
        var widths = TextColumns.columnWidths(rows, count: columns)
        let indent = "  "
        let gaps = 2 * (columns - 1)
        let others = widths.enumerated().filter { $0.offset != place }.map(\.element).reduce(0, +)
        widths[place] = max(
            min(widths[place], width - indent.count - gaps - others), min(widths[place], minPlaceColumns))
        return rows.map {
            TextColumns.truncate(indent + TextColumns.line($0, widths: widths, rightAligned: rightAligned), to: width)
        }
    }

    /// The wind along the way, in the table's words: against you (the table's column) or, for a
    /// tailwind, behind you, each with its speed without a sign; a wind that rounds to nothing is
    /// against you at 0. Empty when the sample has no wind.
    static func wind(_ headwind: Double?, _ options: DisplayOptions) -> (word: String, speed: String) {
        guard let (speed, behind) = AheadDisplay.headwind(headwind, options) else { return ("", "") }
        let w = AheadWords(options.language)
        return (behind == true ? w.windBehind : w.windAgainst, speed)
    }
}
