import Testing

@testable import FixcastCore
@testable import FixcastRendering

/// One set of severity words (`AlertSeverity.word`) for the screen, the status line and the report.
@Suite struct AlertSeverityWordsTests {
    @Test func chineseFollowsChinasFourLevelWarningScale() {
        let zh = [AlertSeverity.extreme, .severe, .moderate, .minor, .unknown].map { $0.word(.zh) }
        #expect(zh == ["特别严重", "严重", "较重", "一般", "级别未知"])
    }

    @Test func theReportSaysWhatTheScreenSays() {
        for language in [Language.en, .ru, .zh] {
            for severity in AlertSeverity.allCases {
                #expect(ReportWords(language).severity(severity) == severity.word(language))
            }
        }
        #expect(AlertSeverity.severe.word(.en) == "severe" && AlertSeverity.minor.word(.ru) == "слабое")
        #expect(AlertSeverity.unknown.word(.en) == "severity unknown")
    }
}
