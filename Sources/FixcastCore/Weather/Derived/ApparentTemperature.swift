/// Steadman's apparent temperature ("feels like") as the Australian Bureau of Meteorology computes it
/// for shade (its "Thermal Comfort observations" page, after Steadman 1994):
///
///     AT = Ta + 0.33 e − 0.70 ws − 4.00,  e = rh/100 · 6.105 · exp(17.27 Ta / (237.7 + Ta))
///
/// with Ta the dry-bulb temperature (°C), e the water vapour pressure (hPa) and ws the wind speed at
/// 10 m (m/s). It needs no sunshine term, so it holds by night and by day in the shade.
public enum ApparentTemperature {
    /// The water vapour pressure in hPa the formula uses (the BoM's own expression).
    public static func vapourPressureHpa(temperatureC t: Double, humidityPct rh: Double) -> Double {
        rh / 100 * 6.105 * Elementary.exp(17.27 * t / (237.7 + t))
    }

    /// nil when an input is missing from the physical ranges (humidity 0…100 %, wind ≥ 0).
    public static func celsius(temperatureC t: Double, humidityPct rh: Double, windSpeedMps ws: Double) -> Double? {
        guard t.isFinite, rh.isFinite, ws.isFinite, (0...100).contains(rh), ws >= 0 else { return nil }
        return t + 0.33 * vapourPressureHpa(temperatureC: t, humidityPct: rh) - 0.70 * ws - 4.00
    }
}
