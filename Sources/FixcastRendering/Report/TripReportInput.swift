import FixcastCore
import FixcastTables
import FixcastText
import FoundationEssentials

/// What one report draws: the trip's track (by fix time), its readings, and how to show them.
public struct TripReportInput: Sendable {
    public var points: [TripTrackPoint]
    public var readings: [TripReading]
    public var units: UnitSystem
    public var language: Language
    /// The trip's number in `fixcast trips`, when the report is of one trip (not a --since/--until range).
    public var tripNumber: Int?
    /// The coast, lakes and borders drawn under the track; nil: none (the map is drawn without them).
    public var basemap: BasemapImage?
    /// The forecast made about an hour before, against what each reading met (`AheadCheck.hourBefore`),
    /// drawn on the profile; empty: no ahead forecast checked.
    public var aheadHourBefore: [AheadCheck.Pair]
    /// `report.trip_gap_min`: a gap this long between two points (a --since/--until range over two
    /// trips) is not drawn as driven, nor counted in the distance.
    public var gapMinutes: Double

    public init(
        points: [TripTrackPoint], readings: [TripReading], units: UnitSystem = .metric, language: Language = .en,
        tripNumber: Int? = nil, basemap: BasemapImage? = nil, aheadHourBefore: [AheadCheck.Pair] = [],
        gapMinutes: Double = TripSplitter.defaultGapMinutes
    ) {
        self.aheadHourBefore = aheadHourBefore
        self.gapMinutes = gapMinutes
        self.points = points
        self.readings = readings
        self.units = units
        self.language = language
        self.tripNumber = tripNumber
        self.basemap = basemap
    }
}
