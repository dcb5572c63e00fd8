import FixcastAdapters
import FixcastCore
import FoundationEssentials

/// A recorded drive for the ahead benches: every `$--RMC` sentence of an NMEA log with status A and a
/// good checksum, in file order, as the fixes gpsd would report (position, speed over ground in m/s,
/// track), each received at its own time (virtual time: the replay's clock is the receiver's).
/// A sentence whose time does not run forward is left out, as a replay would never go back in time.
enum NMEADrive {
    /// 1 knot in m/s (NMEA's speed over ground is in knots).
    static let knotMps = 0.514_444

    static func fixes(path: String) -> [Fix]? {
        guard let bytes = DataFiles.readBytes(path) else { return nil }
        var out: [Fix] = []
        for line in bytes.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            guard let fix = rmc(Array(line)), fix.receivedAt > (out.last?.receivedAt ?? .distantPast) else { continue }
            out.append(fix)
        }
        return out
    }

    static func rmc(_ line: [UInt8]) -> Fix? {
        guard line.count > 7, line[0] == UInt8(ascii: "$"), line[3...5].elementsEqual("RMC".utf8),
            let star = line.lastIndex(of: UInt8(ascii: "*")), star + 2 < line.count,
            let given = UInt8(String(decoding: line[(star + 1)...(star + 2)], as: UTF8.self), radix: 16),
            line[1..<star].reduce(0, ^) == given
        else { return nil }
        let f = line[1..<star].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard f.count >= 10, f[2] == "A", let lat = degrees(f[3], f[4], headDigits: 2),
            let lon = degrees(f[5], f[6], headDigits: 3), let coordinate = Coordinate(lat: lat, lon: lon),
            let time = utc(hhmmss: f[1], ddmmyy: f[9])
        else { return nil }
        return Fix(
            time: time, receivedAt: time, coordinate: coordinate, mode: .threeD,
            speedMps: Double(f[7]).map { $0 * knotMps }, trackDeg: Double(f[8]))
    }

    static func degrees(_ value: String, _ hemisphere: String, headDigits: Int) -> Double? {
        guard value.count > headDigits, let head = Double(value.prefix(headDigits)),
            let minutes = Double(value.dropFirst(headDigits))
        else { return nil }
        let d = head + minutes / 60
        return hemisphere == "S" || hemisphere == "W" ? -d : d
    }

    /// hhmmss[.sss] and ddmmyy (years 2000-2099) as a UTC instant.
    static func utc(hhmmss: String, ddmmyy: String) -> Date? {
        let t = Array(hhmmss.utf8)
        let d = Array(ddmmyy.utf8)
        guard t.count >= 6, d.count == 6, let h = Int(hhmmss.prefix(2)), let m = Int(hhmmss.dropFirst(2).prefix(2)),
            let s = Double(hhmmss.dropFirst(4)), let day = Int(ddmmyy.prefix(2)),
            let month = Int(ddmmyy.dropFirst(2).prefix(2)), let yy = Int(ddmmyy.dropFirst(4))
        else { return nil }
        // Days from 1970-01-01 to the civil date (H. Hinnant's days_from_civil).
        let y = 2000 + yy - (month <= 2 ? 1 : 0)
        let era = y / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + h * 3600 + m * 60) + s)
    }
}
