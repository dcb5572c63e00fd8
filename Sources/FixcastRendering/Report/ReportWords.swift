import FixcastCore
import FixcastText

/// The report's fixed words in the display languages (`--lang`). Place names stay as stored.
public struct ReportWords: Sendable {
    public let language: Language

    public init(_ language: Language) { self.language = language }

    private func pick(_ en: String, _ ru: String, _ zh: String) -> String { language.pick(en, ru, zh) }

    var trip: String { pick("Trip", "Поездка", "行程") }
    var temperature: String { pick("Temperature", "Температура", "气温") }
    var precipitation: String { pick("Precipitation", "Осадки", "降水") }
    var distance: String { pick("Distance", "Расстояние", "距离") }
    /// "1 reading", "3 замера", "20 次读数": the count with its noun's form.
    func readings(_ count: Int) -> String {
        pick(
            CountedNoun.phrase(count, "reading"),
            CountedNoun.russian(count, one: "замер", few: "замера", many: "замеров"),
            "\(count) 次读数")
    }
    var start: String { pick("Start", "Старт", "起点") }
    var end: String { pick("End", "Финиш", "终点") }
    var alert: String { pick("Alert", "Предупреждение", "预警") }
    var time: String { pick("Time (UTC)", "Время (UTC)", "时间 (UTC)") }
    var place: String { pick("Place", "Место", "地点") }
    var weather: String { pick("Weather", "Погода", "天气") }
    var position: String { pick("Position", "Координаты", "位置") }
    var noTemperature: String { pick("no temperature readings", "нет замеров температуры", "无气温读数") }
    var unknownPlace: String { pick("unknown place", "место неизвестно", "未知地点") }
    var weatherData: String { pick("Weather data", "Погода", "天气数据") }
    var places: String { pick("Places", "Места", "地名") }
    var mapData: String { pick("Map data", "Картография", "地图数据") }
    var alerts: String { pick("Alerts", "Предупреждения", "预警") }
    var severityHeading: String { pick("Severity", "Уровень", "级别") }
    var period: String { pick("Period", "Период", "时段") }
    var issuedBy: String { pick("Issued by", "Источник", "发布者") }
    var forecastHourBefore: String { pick("Forecast 1 h before", "Прогноз за 1 ч", "提前 1 小时的预报") }

    /// `AlertSeverity.word`: the same words as the live screen and the status line.
    func severity(_ s: AlertSeverity) -> String { s.word(language) }

    func map(_ projection: MapProjection) -> String {
        switch projection {
        case .mercator:
            return pick(
                "Map: Web Mercator, north up; times UTC", "Карта: Web Mercator, север сверху; время UTC",
                "地图：Web 墨卡托投影，上北；时间为 UTC")
        case .azimuthalEquidistant:
            return pick(
                "Map: azimuthal equidistant around the trip (near a pole); times UTC",
                "Карта: азимутальная равнопромежуточная вокруг поездки (у полюса); время UTC",
                "地图：以行程为中心的方位等距投影（近极地）；时间为 UTC")
        }
    }
}
