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
            let lat = Self.decimalDegrees(parts[0].trimmingCharacters(in: " ")),
            let lon = Self.decimalDegrees(parts[1].trimmingCharacters(in: " "))
        else { return nil }
        self.init(lat: lat, lon: lon)
    }
}

extension Coordinate {
    /// `52.52`, `-13`, `+0.5`: decimal degrees only. `Double("0x10")`, `"1e1"`, `"nan"` and
    /// `"inf"` parse too, but a person typing those into `--at` made a mistake, not a position.
    static func decimalDegrees(_ text: Substring) -> Double? {
        var digits = text
        if let f = digits.first, f == "-" || f == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 3,
            whole.allSatisfy({ $0.isASCII && $0.isNumber }),
            parts.count == 1
                || (!parts[1].isEmpty && parts[1].count <= 20 && parts[1].allSatisfy({ $0.isASCII && $0.isNumber }))
        else { return nil }
        return Double(text)
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
