import Testing

@testable import FixcastCore

struct NominatimReverseDecoderTests {
    @Test func readsAnAddress() throws {
        let body =
            #"{"place_id":1,"name":"Innenstadt","address":{"city_district":"Innenstadt","city":"Cologne","state":"North Rhine-Westphalia","country":"Germany","country_code":"de"}}"#
        let place = try NominatimReverseDecoder.decode(Array(body.utf8))
        #expect(
            place
                == Place(
                    name: "Cologne", region: "North Rhine-Westphalia", country: "Germany", countryCode: "DE",
                    source: .nominatim))
    }

    @Test(arguments: [
        #"{"error":"Unable to geocode"}"#, #"{"error":{"code":400,"message":"Parameter 'lon' missing."}}"#,
    ])
    func anErrorBodyIsNoPlace(_ body: String) throws {
        #expect(try NominatimReverseDecoder.decode(Array(body.utf8)) == nil)
    }

    @Test(arguments: ["", "<html>busy</html>", "[1,2]", #"{"place_id":1}"#, #"{"address":"#])
    func garbageIsAFailure(_ body: String) {
        #expect(throws: NominatimReverseDecoder.Failure.self) { try NominatimReverseDecoder.decode(Array(body.utf8)) }
    }

    @Test func errorMessages() {
        #expect(
            NominatimReverseDecoder.errorMessage(Array(#"{"error":"Unable to geocode"}"#.utf8)) == "Unable to geocode")
        #expect(
            NominatimReverseDecoder.errorMessage(
                Array(#"{"error":{"code":400,"message":"Parameter 'lon' missing."}}"#.utf8))
                == "Parameter 'lon' missing.")
        #expect(NominatimReverseDecoder.errorMessage(Array("nope".utf8)) == nil)
    }
}
