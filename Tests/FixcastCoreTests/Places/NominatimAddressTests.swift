import Testing

@testable import FixcastCore

struct NominatimAddressTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let address: [String: String]
        let name: String?
        let region: String?
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "city beats district and suburb",
            address: [
                "city_district": "Innenstadt", "suburb": "Altstadt-Nord", "city": "Cologne",
                "state": "North Rhine-Westphalia", "country": "Germany", "country_code": "de",
            ],
            name: "Cologne", region: "North Rhine-Westphalia"),
        Case(
            label: "town only",
            address: [
                "road": "High Street", "town": "Totnes", "county": "Devon", "state": "England",
                "country": "United Kingdom", "country_code": "gb",
            ],
            name: "Totnes", region: "England"),
        Case(
            label: "village only",
            address: [
                "road": "Autopista", "village": "El Triángulo", "state_district": "Partido de Malvinas Argentinas",
                "state": "Buenos Aires", "country": "Argentina", "country_code": "ar",
            ],
            name: "El Triángulo", region: "Buenos Aires"),
        Case(
            label: "hamlet",
            address: [
                "hamlet": "Kleinhau", "county": "Düren", "state": "North Rhine-Westphalia", "country_code": "de",
            ],
            name: "Kleinhau", region: "North Rhine-Westphalia"),
        Case(
            label: "municipality without settlement",
            address: ["municipality": "Gemeinde Xy", "state": "Tyrol", "country_code": "at"],
            name: "Gemeinde Xy", region: "Tyrol"),
        Case(
            label: "town preferred over village",
            address: ["village": "Smallplace", "town": "Bigtown", "state": "Somestate"],
            name: "Bigtown", region: "Somestate"),
        Case(
            label: "suburb as a last resort",
            address: ["suburb": "Outskirts", "county": "Some County", "state": "Some State", "country_code": "us"],
            name: "Outskirts", region: "Some State"),
        Case(
            label: "county as a last resort",
            address: ["county": "Lapland County", "state": "Lapland", "country_code": "fi"],
            name: "Lapland County", region: "Lapland"),
        Case(
            label: "only a state",
            address: ["state": "Western Australia", "country": "Australia", "country_code": "au"],
            name: "Western Australia", region: "Western Australia"),
        Case(
            label: "region without state",
            address: ["village": "Somewhere", "region": "Île-de-France", "country_code": "fr"],
            name: "Somewhere", region: "Île-de-France"),
        Case(
            label: "blank values are skipped",
            address: ["city": "  ", "town": "Realtown", "state": ""],
            name: "Realtown", region: nil),
        Case(
            label: "only a country names nothing",
            address: ["country": "Atlantis", "country_code": "xx"],
            name: nil, region: nil),
        Case(label: "empty address names nothing", address: [:], name: nil, region: nil),
    ]

    @Test(arguments: cases)
    func choosesTheMostSpecificSettlement(_ c: Case) {
        let place = NominatimAddress.place(from: c.address)
        #expect(place?.name == c.name)
        #expect(place?.region == c.region)
        if c.name != nil {
            #expect(place?.source == .nominatim)
        }
    }

    @Test func countryCodeIsUpperCase() {
        let place = NominatimAddress.place(from: [
            "city": "Berlin", "state": "Berlin", "country": "Germany", "country_code": "de",
        ])
        #expect(place?.countryCode == "DE")
        #expect(place?.country == "Germany")
    }
}
