import FixcastCore

/// The words of the weather ahead in each `--lang`, for the live screen's block and `fixcast ahead`
/// (the headline, what the samples follow, the table, the alerts ahead). Numbers, units and place
/// names are the same in every language.
struct AheadWords: Sendable {
    let language: Language

    init(_ language: Language) { self.language = language }

    private func pick(_ en: String, _ ru: String, _ zh: String) -> String { language.pick(en, ru, zh) }

    func rainIn(_ duration: String) -> String {
        pick("Rain in about \(duration)", "Дождь примерно через \(duration)", "约 \(duration)后有雨")
    }
    func ahead(_ distance: String) -> String {
        pick(", \(distance) ahead", ", в \(distance) впереди", "，前方 \(distance)")
    }
    func near(_ place: String) -> String { pick(", near \(place)", ", около \(place)", "，\(place)附近") }
    func noRain(next duration: String) -> String {
        pick("No rain ahead in the next \(duration)", "Без дождя в ближайшие \(duration)", "未来 \(duration)内前方无雨")
    }
    /// No sample has a precipitation value: neither rain nor "no rain" can be said.
    var rainUnknown: String { pick("Rain ahead unknown", "Дождь впереди неизвестен", "前方降雨未知") }
    var routeEnds: String {
        pick(
            "The route ends here: nothing ahead to forecast",
            "Маршрут заканчивается здесь: впереди прогнозировать нечего",
            "路线在此结束：前方无可预报")
    }
    var nothingAhead: String { pick("Nothing ahead to forecast", "Впереди прогнозировать нечего", "前方无可预报") }
    var stale: String { pick("(stale) ", "(устарело) ", "（已过期）") }
    var fullStop: String { pick(".", ".", "。") }
    func inAbout(_ duration: String) -> String {
        pick(" in about \(duration)", " примерно через \(duration)", "，约 \(duration)后")
    }
    var now: String { pick(" now", " сейчас", "，现在") }
    var alongTheRoute: String { pick("Along the route", "По маршруту", "沿路线") }
    func left(_ distance: String) -> String { pick(", \(distance) left", ", осталось \(distance)", "，剩余 \(distance)") }
    var offRoute: String { pick("Off the route: following the course", "Вне маршрута: по курсу", "偏离路线：按航向") }
    var followingCourse: String { pick("Following the course", "По курсу", "按航向") }
    var stayingHere: String { pick("Staying here", "На месте", "原地不动") }
    func at(_ speed: String) -> String { pick(", at \(speed)", ", со скоростью \(speed)", "，速度 \(speed)") }
    var learned: String { pick(" (learned from the track)", " (по треку)", "（根据轨迹）") }
    var receiver: String { pick(" (receiver)", " (по приёмнику)", "（接收器）") }
    /// The table's header, the distance column named by its unit.
    func header(distanceUnit: String) -> [String] {
        [
            pick("in", "через", "时间"), distanceUnit, pick("place", "место", "地点"), pick("temp", "темп.", "气温"),
            pick("rain", "дождь", "降雨"), pick("against you", "встречный", "逆风"), pick("conditions", "погода", "天气"),
        ]
    }
    func asOf(_ clock: String) -> String { pick("Ahead as of \(clock): ", "Впереди на \(clock): ", "前方（\(clock)）：") }
    var alertAhead: String { pick("Alert ahead: ", "Предупреждение впереди: ", "前方预警：") }
    func moreAlerts(_ n: Int) -> String {
        pick("and \(n) more alerts ahead", "и ещё \(n) впереди", "前方另有 \(n) 条预警")
    }
    /// The live screen's wind along the way: the table's column word for a wind against you, and
    /// its opposite for one behind you (the table says that with a minus sign under its column).
    var windAgainst: String { pick("against you", "встречный", "逆风") }
    var windBehind: String { pick("behind you", "попутный", "顺风") }

    /// `45 min`, `1 h 30 min`, `2 h` in the language.
    func duration(minutes: Int) -> String {
        let (min, hour) = (pick("min", "мин", "分钟"), pick("h", "ч", "小时"))
        guard minutes >= 60 else { return "\(Swift.max(0, minutes)) \(min)" }
        let h = minutes / 60
        let m = minutes % 60
        return m == 0 ? "\(h) \(hour)" : "\(h) \(hour) \(m) \(min)"
    }
}
