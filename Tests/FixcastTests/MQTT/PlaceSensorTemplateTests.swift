import FixcastCore
import FixcastText
import Foundation
import Testing

@testable import FixcastTestSupport

/// The place sensor's template, rendered by Jinja2 as Home Assistant renders it: a state is at most 255
/// characters there (a longer one is refused at every message), and a place name may be 1,024 bytes.
@Suite struct PlaceSensorTemplateTests {
    static func placeTemplate() throws -> String {
        let topics = MQTTTopics(prefix: "fixcast", device: "van7", discoveryPrefix: "homeassistant")
        let config = try #require(HomeAssistantDiscovery.configs(topics: topics).first { $0.topic.contains("/place/") })
        return try #require(config.payload["value_template"]?.stringValue)
    }

    static func state(place name: String?) -> JSONValue {
        var reading = Reading(time: Date(timeIntervalSince1970: 1_780_000_000), trigger: .periodic, position: nil)
        reading.place = name.map {
            Place(name: $0, region: nil, country: "Germany", countryCode: "DE", source: .nominatim)
        }
        return reading.json(language: .en)
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/jinja2"),
            "python3-jinja2 is not installed"))
    func aLongNameIsCutToHomeAssistantsStateLimit() throws {
        let template = try Self.placeTemplate()
        let render = AlertAndAheadTopicTests.render
        #expect(try render(template, Self.state(place: "Innenstadt")) == "Innenstadt")
        #expect(try render(template, Self.state(place: String?.none)) == "None")
        let exactly = String(repeating: "ä", count: 255)
        #expect(try render(template, Self.state(place: exactly)) == exactly)
        let long = String(repeating: "Ring", count: 150)
        let cut = try render(template, Self.state(place: long))
        #expect(cut.count == 255 && cut.hasSuffix("…") && long.hasPrefix(String(cut.dropLast())), "\(cut.count)")
    }
}
