import FixcastCore
import FixcastText

/// The words of the human display in each `--lang` (English, Russian, Chinese).
///
/// Only the labels; numbers, units and place names are the same in every language.
package struct DisplayLabels: Sendable {
    let language: Language

    init(_ language: Language) { self.language = language }

    private func pick(_ en: String, _ ru: String, _ zh: String) -> String { language.pick(en, ru, zh) }

    var liveTitle: String { pick("fixcast · live weather", "fixcast · погода сейчас", "fixcast · 实时天气") }
    var demoData: String { pick("[demo data]", "[демо-данные]", "[演示数据]") }
    var feelsLike: String { pick("feels like", "ощущается как", "体感") }
    var humidity: String { pick("Humidity", "Влажность", "湿度") }
    var dewPoint: String { pick("Dew point", "Точка росы", "露点") }
    var pressure: String { pick("Pressure", "Давление", "气压") }
    var wind: String { pick("Wind", "Ветер", "风") }
    var gusts: String { pick("gusts", "порывы", "阵风") }
    var precipitation: String { pick("Precipitation", "Осадки", "降水") }
    var cloudCover: String { pick("Cloud cover", "Облачность", "云量") }
    var today: String { pick("Today", "Сегодня", "今天") }
    var min: String { pick("min", "мин", "最低") }
    var max: String { pick("max", "макс", "最高") }
    var sunrise: String { pick("sunrise", "восход", "日出") }
    var sunset: String { pick("sunset", "закат", "日落") }
    var polarDay: String { pick("polar day", "полярный день", "极昼") }
    var polarNight: String { pick("polar night", "полярная ночь", "极夜") }
    var noFixShort: String { pick("no fix", "нет GPS", "无定位") }
    var noReadingStored: String { pick("no reading stored yet", "показаний пока нет", "尚无读数") }

    /// `AlertSeverity.word`: one set of severity words for the screen, the status line and the report.
    func severityWord(_ s: AlertSeverity) -> String { s.word(language) }
    var nextDays: String { pick("Next days", "Следующие дни", "未来几天") }
    var alerts: String { pick("Alerts", "Предупреждения", "预警") }
    var errors: String { pick("Problems", "Проблемы", "问题") }
    var until: String { pick("until", "до", "至") }
    var from: String { pick("from", "с", "自") }
    var checked: String { pick("checked", "проверено", "检查于") }
    var noneActive: String { pick("none active.", "действующих нет.", "目前没有。") }
    var alertsStale: String { pick("stale", "устарело", "已过期") }
    /// The `alerts` command's facts line under an alert: CAP's certainty and urgency (the source's own
    /// words follow, untranslated) and when the message itself expires.
    var alertCertainty: String { pick("certainty", "достоверность", "确定性") }
    var alertUrgency: String { pick("urgency", "срочность", "紧迫性") }
    var alertMessageExpires: String { pick("message expires", "сообщение действует до", "消息有效至") }
    /// After the `alerts` header when the source failed and its last answer is shown.
    var alertsStaleNote: String {
        pick(
            "stale: the service is not answering, these are the last alerts it gave",
            "устарело: служба не отвечает, это последние полученные от неё предупреждения",
            "已过期：服务无应答，以下是它最后给出的预警")
    }
    /// "No active alerts here": the `alerts` command's first line when none is in force.
    var noActiveAlertsHere: String {
        pick("No active alerts here", "Здесь нет действующих предупреждений", "此处没有生效的预警")
    }
    /// "2 active alerts here", with the count's form in each language.
    func activeAlertsHere(_ count: Int) -> String {
        pick(
            CountedNoun.phrase(count, "active alert") + " here",
            "Здесь "
                + CountedNoun.russian(
                    count, one: "действующее предупреждение", few: "действующих предупреждения",
                    many: "действующих предупреждений"),
            "此处有 \(count) 条生效的预警")
    }
    var cached: String { pick("cached", "из кэша", "缓存") }
    var stale: String { pick("stale: could not refresh", "устарело: обновить не удалось", "已过期：无法刷新") }
    var updating: String { pick("updating…", "обновление…", "正在更新…") }
    var unknownPlace: String { pick("Unknown place", "Место неизвестно", "未知地点") }
    var noWeather: String { pick("No weather data.", "Нет данных о погоде.", "没有天气数据。") }
    var noPosition: String {
        pick("No position yet: waiting for a GPS fix.", "Координат пока нет: ждём GPS.", "尚无位置：正在等待 GPS 定位。")
    }
    var waitingForFix: String { pick("waiting for a fix", "ждём GPS", "等待定位") }
    var lastKnownPosition: String { pick("last known position", "последнее известное место", "最后已知位置") }
    var fixedPosition: String { pick("fixed position", "заданное место", "指定位置") }
    var fix: String { pick("fix", "фикс", "定位") }
    var satellites: String { pick("sats", "спутн.", "颗卫星") }
    var statusOK: String { pick("status: ok", "состояние: ок", "状态：正常") }
    var keys: String { pick("r refresh · q quit", "r обновить · q выход", "r 刷新 · q 退出") }
    var date: String { pick("Date", "Дата", "日期") }
    var weather: String { pick("Weather", "Погода", "天气") }
    var minHeader: String { pick("Min", "Мин", "最低") }
    var maxHeader: String { pick("Max", "Макс", "最高") }
    var precipitationHeader: String { pick("Precip.", "Осадки", "降水") }
    var noForecast: String { pick("No forecast days.", "Прогноза нет.", "没有预报。") }

    func noFixSince(_ clock: String, _ age: String) -> String {
        pick("no fix since \(clock) (\(age))", "нет GPS с \(clock) (\(age))", "自 \(clock) 起无定位（\(age)）")
    }

    func updated(_ age: String) -> String {
        pick("updated \(age)", "обновлено \(age)", "更新于\(age)")
    }

    func more(_ n: Int) -> String {
        pick("(+\(n) more)", "(ещё \(n))", "（另有 \(n) 条）")
    }

    /// A description for a WMO code the table does not know (or before it is filled).
    func weatherCode(_ code: Int) -> String {
        pick("weather code \(code)", "код погоды \(code)", "天气代码 \(code)")
    }

    var weekdays: [String] {
        language.pick(
            ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], ["Пн", "Вт", "Ср", "Чт", "Пт", "Сб", "Вс"],
            ["周一", "周二", "周三", "周四", "周五", "周六", "周日"])
    }

    /// From this age on `age(seconds:)` counts whole days ("2 d ago"), before it hours and minutes:
    /// what changes its text once a minute, then once a day (`StatusLineOutput`'s next change).
    package static let ageInDaysFromS = 48 * 3600

    /// How long ago, coarsely: "just now", "5 min ago", "2 h 5 min ago", "3 d ago"; "ahead of the clock"
    /// for a time more than `ClockStep.toleranceS` after now (written on a clock set back since: how
    /// long ago is not known, and "just now" would be a lie about the data's age).
    package func age(seconds: Int) -> String {
        if ClockStep.isAhead(secondsAgo: seconds) {
            return pick("ahead of the clock", "позже системных часов", "晚于系统时钟")
        }
        let s = Swift.max(0, seconds)
        if s < 60 { return pick("just now", "только что", "刚刚") }
        let minutes = s / 60
        if minutes < 60 { return pick("\(minutes) min ago", "\(minutes) мин назад", "\(minutes) 分钟前") }
        let hours = minutes / 60
        if s < Self.ageInDaysFromS {
            let m = minutes % 60
            if m == 0 { return pick("\(hours) h ago", "\(hours) ч назад", "\(hours) 小时前") }
            return pick("\(hours) h \(m) min ago", "\(hours) ч \(m) мин назад", "\(hours) 小时 \(m) 分钟前")
        }
        let days = hours / 24
        return pick("\(days) d ago", "\(days) дн назад", "\(days) 天前")
    }
}
