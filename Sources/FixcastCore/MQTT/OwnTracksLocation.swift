import FixcastText
import FoundationEssentials

/// A reading's position in OwnTracks' location format (`_type: location`), so the OwnTracks
/// Recorder and Home Assistant's OwnTracks integration can take it. Fields as OwnTracks defines
/// them (https://owntracks.org/booklet/tech/json/): lat, lon (degrees), acc (metres), alt
/// (metres), vel (km/h, integer), cog (degrees, integer), tst (epoch seconds of the fix), tid
/// (two characters naming the device). A field fixcast does not know is left out, never made up.
public enum OwnTracksLocation {
    /// nil when the reading has no position.
    public static func payload(for reading: Reading, device: String) -> JSONValue? {
        guard let p = reading.position else { return nil }
        var members: [(String, JSONValue)] = [
            ("_type", .string("location")),
            ("lat", .double(p.coordinate.lat)),
            ("lon", .double(p.coordinate.lon)),
        ]
        if let acc = p.horizontalErrorM, acc >= 0, let m = Int(checked: acc, rounding: .toNearestOrAwayFromZero) {
            members.append(("acc", .int(m)))
        }
        if let alt = p.altitudeM, alt.isFinite, abs(alt) < 100_000 { members.append(("alt", .int(Int(alt.rounded())))) }
        // 3.6 km/h per m/s; a speed past 2,000 km/h is no vehicle fixcast rides in.
        if let v = p.speedMps, v.isFinite, v >= 0, v < 560 { members.append(("vel", .int(Int((v * 3.6).rounded())))) }
        if let c = p.trackDeg, c.isFinite, c >= 0, c <= 360 { members.append(("cog", .int(Int(c.rounded()) % 360))) }
        let when = p.fixTime ?? reading.time
        members.append(("tst", .int(Int(clamping: when.timeIntervalSince1970, to: 0...Int.max, rounding: .down))))
        members.append(("tid", .string(trackerID(device: device))))
        return .object(members)
    }

    /// Two characters from the device id (OwnTracks shows them on the map pin): its first two
    /// letters or digits, upper case; "FX" when it has none.
    public static func trackerID(device: String) -> String {
        let chars = device.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.uppercased()
        switch chars.count {
        case 0: return "FX"
        case 1: return chars + chars
        default: return String(chars.prefix(2))
        }
    }
}
