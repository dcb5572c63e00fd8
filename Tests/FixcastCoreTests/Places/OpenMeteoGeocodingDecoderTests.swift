import Testing

@testable import FixcastCore

struct OpenMeteoGeocodingDecoderTests {
    @Test func readsResultsInOrder() throws {
        let body = #"""
            {"results":[{"id":1,"name":"Enschede","latitude":52.21833,"longitude":6.89583,"country_code":"NL","population":153655,"country":"The Netherlands","admin1":"Overijssel"},
            {"id":2,"name":"Enschede Airport Twente","latitude":52.27,"longitude":6.87417,"country_code":"nl","country":"The Netherlands"}],"generationtime_ms":0.1}
            """#
        let matches = try OpenMeteoGeocodingDecoder.decode(Array(body.utf8))
        #expect(matches.map(\.name) == ["Enschede", "Enschede Airport Twente"])
        #expect(matches[0].population == 153655)
        #expect(matches[0].region == "Overijssel")
        #expect(matches[0].coordinate == Coordinate(lat: 52.21833, lon: 6.89583))
        #expect(matches[1].population == nil)
        #expect(matches[1].region == nil)
        #expect(matches[1].countryCode == "NL")
        #expect(matches.allSatisfy { $0.source == .openMeteo })
    }

    // Found by the decoders' fuzz campaign (`fixcast-bench fuzz geocoding`, bench/README.md): a negative
    // population was shown as a fact, and -9223372036854775808 trapped `search`'s digit grouping (abs).
    @Test func aPopulationNoPlaceCanHaveIsUnknown() throws {
        for population in ["-9223372036854775808", "-9999", "-1", "10000000001", "9223372036854775807"] {
            let body = #"{"results":[{"name":"X","latitude":1,"longitude":2,"population":\#(population)}]}"#
            #expect(try OpenMeteoGeocodingDecoder.decode(Array(body.utf8)).map(\.population) == [nil], "\(population)")
        }
        let zero = #"{"results":[{"name":"X","latitude":1,"longitude":2,"population":0}]}"#
        #expect(try OpenMeteoGeocodingDecoder.decode(Array(zero.utf8)).map(\.population) == [0])
    }

    @Test func noResultsKeyIsNoMatch() throws {
        #expect(try OpenMeteoGeocodingDecoder.decode(Array(#"{"generationtime_ms":0.13}"#.utf8)).isEmpty)
    }

    @Test func resultsWithoutCoordinatesAreSkipped() throws {
        let body =
            #"{"results":[{"name":"Nowhere"},{"name":"Bad","latitude":95,"longitude":0},{"name":"Ok","latitude":1,"longitude":2}]}"#
        #expect(try OpenMeteoGeocodingDecoder.decode(Array(body.utf8)).map(\.name) == ["Ok"])
    }

    @Test func anErrorBodyIsAFailureWithTheReason() {
        let body = #"{"error": true, "reason": "Parameter count must be between 1 and 100."}"#
        #expect(throws: OpenMeteoGeocodingDecoder.Failure(detail: "Parameter count must be between 1 and 100.")) {
            try OpenMeteoGeocodingDecoder.decode(Array(body.utf8))
        }
        #expect(OpenMeteoGeocodingDecoder.errorReason(Array(body.utf8)) == "Parameter count must be between 1 and 100.")
    }

    @Test(arguments: ["", "null", #"{"results":5}"#, "<html>"])
    func garbageIsAFailure(_ body: String) {
        #expect(throws: OpenMeteoGeocodingDecoder.Failure.self) {
            try OpenMeteoGeocodingDecoder.decode(Array(body.utf8))
        }
    }
}
