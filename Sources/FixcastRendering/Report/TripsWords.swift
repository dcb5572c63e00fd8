import FixcastCore
import FixcastText

/// `fixcast trips`' fixed words in the display languages (`--lang`): its table's header, the
/// forecast-vs-met cell and the lines for an empty store. Place names stay as stored; the report's
/// own words (`ReportWords`) are the same where the two say the same thing.
public struct TripsWords: Sendable {
    public let language: Language

    public init(_ language: Language) { self.language = language }

    private func pick(_ en: String, _ ru: String, _ zh: String) -> String { language.pick(en, ru, zh) }

    public var header: [String] {
        [
            "#", pick("start (UTC)", "начало (UTC)", "开始 (UTC)"), pick("end (UTC)", "конец (UTC)", "结束 (UTC)"),
            pick("distance", "расстояние", "距离"), pick("duration", "в пути", "时长"),
            pick("from → to", "откуда → куда", "起点 → 终点"), pick("readings", "замеры", "读数"),
            pick("temperature", "температура", "气温"),
            pick("forecast ahead vs met", "прогноз впереди и факт", "前方预报与实测"),
        ]
    }

    /// "12 pairs", "12 пар", "12 对".
    public func pairs(_ n: Int) -> String {
        pick(
            "\(n) " + (n == 1 ? "pair" : "pairs"), CountedNoun.russian(n, one: "пара", few: "пары", many: "пар"),
            "\(n) 对")
    }

    public var eta: String { pick("ETA", "время прибытия", "到达时间") }
    public var temperature: String { pick("temp", "темп.", "气温") }

    /// "rain 3 hit 1 missed 0 false".
    public func rain(hits: Int, misses: Int, falseAlarms: Int) -> String {
        pick(
            "rain \(hits) hit \(misses) missed \(falseAlarms) false",
            "дождь: верно \(hits), пропущено \(misses), ложно \(falseAlarms)",
            "降雨 \(hits) 命中 \(misses) 漏报 \(falseAlarms) 误报")
    }

    public func noStore(_ path: String) -> String {
        pick(
            "No trips: there is no store at \(path) yet; record one with fixcast run (or check --db).",
            "Поездок нет: хранилища \(path) ещё нет; запишите поездку командой fixcast run (или проверьте --db).",
            "没有行程：\(path) 处还没有存储；请用 fixcast run 记录一次（或检查 --db）。")
    }

    public func empty(_ path: String) -> String {
        pick(
            "No trips in the store \(path); record one with fixcast run.",
            "В хранилище \(path) поездок нет; запишите поездку командой fixcast run.",
            "存储 \(path) 中没有行程；请用 fixcast run 记录一次。")
    }
}
