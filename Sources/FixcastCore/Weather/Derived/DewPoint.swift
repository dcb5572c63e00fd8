/// The dew point from air temperature and relative humidity, by the Magnus formula with
/// Alduchov and Eskridge's constants (a = 17.625, b = 243.04 °C; J. Appl. Meteor. 35, 1996).
///
/// Their fit keeps the saturation vapour pressure within 0.4 % of the reference over −40…50 °C,
/// which puts the dew point within about 0.1 °C of a psychrometric table in that range.
public enum DewPoint {
    static let a = 17.625
    static let b = 243.04

    /// nil when humidity is not in (0, 100] % (the logarithm has no answer at 0 %) or the inputs are
    /// not finite: an unknown, never a made-up value.
    public static func celsius(temperatureC t: Double, humidityPct rh: Double) -> Double? {
        guard t.isFinite, rh.isFinite, rh > 0, rh <= 100 else { return nil }
        let gamma = Elementary.log(rh / 100) + a * t / (b + t)
        return b * gamma / (a - gamma)
    }
}
