/// Where a track's step between two positions crosses the antimeridian (±180°), so that a line drawn
/// in longitude and latitude (GeoJSON's `[lon, lat]`) is cut there instead of running the long way
/// round the world (RFC 7946 §3.1.9: "cutting it in two such that neither part's representation
/// crosses the antimeridian").
///
/// Two positions more than 180° of longitude apart are taken to cross it: the short way round is then
/// across ±180°, and a track's consecutive fixes are seconds apart (a gap of half the world between
/// two stored fixes would be drawn as the short way round too, which is the likelier truth).
public struct AntimeridianCut: Sendable, Hashable {
    /// The latitude where the step meets the antimeridian (linear in longitude and latitude, as the
    /// line is drawn).
    public let lat: Double
    /// The side the step leaves from: 180 going east (from positive longitudes), −180 going west.
    public let leavingLon: Double
    /// The side the step arrives on: the other one.
    public var enteringLon: Double { -leavingLon }

    /// The cut between `a` and `b`, or nil when the step does not cross the antimeridian.
    public static func crossing(from a: Coordinate, to b: Coordinate) -> AntimeridianCut? {
        let delta = b.lon - a.lon
        guard abs(delta) > 180 else { return nil }
        let eastward = delta < 0  // e.g. 179.9 → −179.9
        let leaving: Double = eastward ? 180 : -180
        // `b` on `a`'s side of the line (181 rather than −179), so the step is the short way round.
        let span = (b.lon + (eastward ? 360 : -360)) - a.lon
        // 180 to −180 (one meridian under two names) has no span: the cut is at `a`.
        let share = span == 0 ? 0 : min(max((leaving - a.lon) / span, 0), 1)
        return AntimeridianCut(lat: a.lat + (b.lat - a.lat) * share, leavingLon: leaving)
    }
}
