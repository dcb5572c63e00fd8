import FixcastAdapters
import FixcastCore
import Testing

struct MeteoAlarmSourceTests {
    @Test func feedURLsUnderTheDefaultAndAConfiguredBase() throws {
        let http = CurlHTTPClient()
        let france = try #require(MeteoAlarmFeeds.slug(countryCode: "FR"))
        #expect(
            MeteoAlarmSource(baseURL: "", http: http).url(feed: france)
                == "https://feeds.meteoalarm.org/feeds/meteoalarm-legacy-atom-france")
        let austria = try #require(MeteoAlarmFeeds.slug(countryCode: "at"))
        #expect(
            MeteoAlarmSource(baseURL: " http://127.0.0.1:8080/ ", http: http).url(feed: austria)
                == "http://127.0.0.1:8080/feeds/meteoalarm-legacy-atom-austria")
        #expect(MeteoAlarmFeeds.slug(countryCode: "CA") == nil)
    }
}
