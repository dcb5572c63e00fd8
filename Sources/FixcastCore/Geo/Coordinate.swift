/// A point on the WGS 84 ellipsoid in decimal degrees.
///
/// Only finite values inside [-90, 90] × [-180, 180] make a coordinate: a NaN from libgps or an
/// out-of-range value from a bad sentence is rejected at the border, not carried along.
public struct Coordinate: Sendable, Hashable {
    public let lat: Double
    public let lon: Double

    /// nil when either value is not finite or out of range.
    public init?(lat: Double, lon: Double) {
        guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        self.lat = lat
        self.lon = lon
    }

    /// Parses `LAT,LON` as given to `--at` ("52.52,13.405", spaces allowed after the comma).
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingCharacters(in: " ")),
              let lon = Double(parts[1].trimmingCharacters(in: " "))
        else { return nil }
        self.init(lat: lat, lon: lon)
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return s
    }
}
