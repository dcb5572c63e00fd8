import FixcastCore
import Foundation

/// Writes NMEA 0183 sentences (GGA and RMC with valid checksums) for crafted receiver logs: the
/// hostile inputs of the plausibility tests (a (0,0) fix, a jump, a date from 1994). gpsd checks
/// every checksum, so the sentences must be exact.
enum NMEAWriter {
    /// One receiver epoch: where, and when by the receiver's clock.
    struct Epoch {
        var lat: Double
        var lon: Double
        var time: Date
    }

    /// `$<body>*<XOR of the body's bytes, two hex digits>`.
    static func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count < 2 ? "0" + hex : hex)
    }

    /// GGA then RMC for the epoch (a 3D fix from 8 satellites).
    static func sentences(_ e: Epoch) -> [String] {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: e.time)
        // Hundredths of a second, as 5 and 10 Hz receivers send them (".00" for whole seconds).
        let t = e.time.timeIntervalSince1970
        let hundredths = Int(((t - t.rounded(.down)) * 100).rounded(.down))
        let hms = pad(c.hour ?? 0) + pad(c.minute ?? 0) + pad(c.second ?? 0) + "." + pad(hundredths)
        let dmy = pad(c.day ?? 1) + pad(c.month ?? 1) + pad((c.year ?? 2000) % 100)
        let lat = angle(e.lat, degreeDigits: 2) + "," + (e.lat < 0 ? "S" : "N")
        let lon = angle(e.lon, degreeDigits: 3) + "," + (e.lon < 0 ? "W" : "E")
        return [
            sentence("GPGGA,\(hms),\(lat),\(lon),1,08,0.9,34.0,M,45.0,M,,"),
            sentence("GPRMC,\(hms),A,\(lat),\(lon),0.0,0.0,\(dmy),,,A"),
        ]
    }

    /// The lines of a log of `epochs`, each line ending in CR LF as receivers send them.
    static func log(_ epochs: [Epoch]) -> [[UInt8]] {
        epochs.flatMap(sentences).map { Array(($0 + "\r\n").utf8) }
    }

    /// `ddmm.mmmm` (or `dddmm.mmmm`) of |degrees|.
    static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        let a = abs(degrees)
        var whole = Int(a)
        var tenThousandthsOfMinute = Int(((a - Double(whole)) * 60 * 10_000).rounded())
        if tenThousandthsOfMinute >= 600_000 {
            whole += 1
            tenThousandthsOfMinute -= 600_000
        }
        let minutes = tenThousandthsOfMinute / 10_000
        let fraction = String(tenThousandthsOfMinute % 10_000)
        let d = String(whole)
        return String(repeating: "0", count: max(0, degreeDigits - d.count)) + d + pad(minutes) + "."
            + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    private static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
