import FixcastText

extension JSONValue {
    /// A percentage or a direction in whole units, written as a JSON integer (`10`, `260`, as CONTRACT.md
    /// shows them; `10.0` would fail a consumer that reads them into an integer); null when unknown or
    /// absurd (a billion or more: no percentage or direction is). Converted the one way fixcast turns a
    /// Double into an integer, `Int(checked:)`.
    public static func whole(_ value: Double?) -> JSONValue {
        guard let value, abs(value) < 1e9, let whole = Int(checked: value, rounding: .toNearestOrAwayFromZero)
        else { return .null }
        return .int(whole)
    }

    /// A compass direction the same way, in 0…359: rounded first, then folded (`CompassDegrees`), so
    /// 359.6° is 0, not 360 (some providers send 360 for north too).
    public static func wholeBearing(_ value: Double?) -> JSONValue {
        guard case .int(let degrees) = whole(value) else { return .null }
        return .int(Int(CompassDegrees.folded(Double(degrees))))
    }
}
