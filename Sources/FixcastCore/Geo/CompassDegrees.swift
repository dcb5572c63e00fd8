/// Degrees folded into [0, 360): the one rule for a bearing, a course and a wind direction, wherever
/// they are read, computed or shown (720 is 0, −90 is 270). A tiny negative angle, whose sum with 360
/// rounds to 360, is 0, so a result is always a valid index into a compass rose.
public enum CompassDegrees {
    /// `degrees` in [0, 360); 0 for NaN or an infinity (a caller for whom an unknown direction is not
    /// north checks `isFinite` first).
    public static func folded(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        let d = degrees.truncatingRemainder(dividingBy: 360)
        let folded = d < 0 ? d + 360 : d
        return folded >= 360 ? 0 : folded
    }
}
