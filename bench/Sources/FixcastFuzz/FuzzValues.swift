/// The hostile values the mutators put where an API, a file or gpsd has a value.
public enum FuzzValues {
    /// Number lexemes: beyond Double's range, beyond Int's, negative zero, subnormals, sentinels, and
    /// texts that are not JSON numbers at all (a parser must refuse them, not guess).
    public static let numbers = [
        "1e308", "-1e308", "1.7976931348623157e308", "1e309", "-1e400", "1e-400", "4.9e-324", "-0", "-0.0", "0",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "123456789012345678901234567890", "2147483648", "4294967296", "9007199254740993",
        "8.9e15", "9.1e15", "1e15", "1e6", "999999", "-9999", "-273.15", "-1", "0.5", "1", "2", "45", "99", "100",
        "360", "720", "3601", "65535", "1E2", "1e+2", "0.1e-2", "NaN", "Infinity", "-Infinity", "nan", "inf", "0x10",
        "+1", ".5", "01", "1.", "--1", "1e", "1e+", "-",
    ]

    /// Text an API might send where a name, a unit or a time is expected.
    public static let strings = [
        "", " ", "\u{1B}]0;pwned\u{07}", "\u{1B}[2J", "\u{9B}31m", "\u{9D}0;x\u{9C}", "\u{0}", "\u{8}", "\r", "\n",
        "\t", "\u{7F}", "\u{85}", "\u{202E}evil\u{202C}", "\u{2066}x\u{2069}", "\u{200F}", "\u{61C}", "\u{2028}",
        "\u{2029}", "\u{FEFF}", "=HYPERLINK(\"http://x\")", "'", "\"", "\\", "é", "e\u{301}", "北京", "😀", "\u{10FFFF}",
        String(repeating: "x", count: 5000), String(repeating: "é", count: 70_000),
        String(repeating: "\u{301}", count: 20_000), "0000-01-01", "0000-01-01T00:00Z", "9999-12-31T23:59:59Z",
        "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2199-12-31T23:59:59Z", "2200-01-01T00:00:00Z",
        "2026-02-29", "2024-02-29T12:00", "2026-13-01", "2026-01-32T00:00", "2026-01-01T24:00", "2026-01-01T23:60",
        "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.9999999999999999999999Z", "2026-01-01T00:00:00+23:59",
        "2026-01-01T00:00:00-2359", "2026-01-01T00:00:00+24:00", "2026-01-01 12:00", "2026-06-15T12:00Z",
        "2026-06-15T12:00:00+02:00", "2026-06-15", "1e308", "NaN", "°C", "°F", "K", "kelvin", "km/h", "mph", "kn",
        "m/s", "hPa", "Pa", "inHg", "kPa", "mm", "inch", "cm", "%", "Actual", "Test", "Update", "Cancel", "Extreme",
        "red", "2; yellow; Moderate", "ended", "Polygon", "MultiPolygon", "Point", "/zones/forecast/NVZ003",
        "https://api.weather.gov/zones/forecast/NVZ003", "/zones//x", "clearsky_day", "heavyrainandthunder",
        "bogus_night", "_day", "sender,id,2026-01-01T00:00:00Z", "a,b,c d,e,f", "true",
    ]

    /// Decimal texts where GPX wants a latitude or longitude.
    public static let decimals = [
        "0", "-0", "+0", "90", "-90", "90.0000000000000000001", "180", "-180.000", "180.1", "1e5", "1E1", "nan", "inf",
        "0x10", " 45 ", "\t45\n", ".5", "5.", "+.5", "-", "+", "", "٣", "１２", "999", "1000", "45.123456789012345678901",
        "45.1234567890123456789012", "12345678901234567890", "--1",
    ]

    /// Keys the decoders look for but the seeds may not hold, so a mutation can put a value there.
    public static let keys = [
        "utc_offset_seconds", "current", "current_units", "daily", "daily_units", "hourly", "hourly_units", "time",
        "sunrise", "sunset", "weather_code", "timezone", "error", "reason", "features", "properties", "geometry",
        "coordinates", "type", "references", "interval", "when", "sent", "onset", "expires", "ends", "status", "id",
        "address", "results", "population", "latitude", "longitude", "name", "dt", "list", "city", "main", "sys",
        "timeseries", "meta", "units", "instant", "details", "next_1_hours", "next_6_hours", "next_12_hours",
        "symbol_code", "precipitation_amount", "affectedZones", "awareness_level", "riskMatrixColor",
    ]
}
