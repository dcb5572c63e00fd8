import FixcastCore
import FixcastText

/// The place decoders: Nominatim's reverse geocoding and Open-Meteo's forward search.
extension FuzzTargets {
    static let nominatim = jsonTarget(
        name: "nominatim", about: "Nominatim /reverse?format=jsonv2, and its error bodies",
        seedNames: [
            "nominatim-reverse-jsonv2-docs.json", "nominatim-reverse-jsonv2-zoom12.json",
            "nominatim-reverse-error-unable-to-geocode.json", "nominatim-error-400.json",
        ]
    ) { _ in
        { bytes in
            FuzzCheck.judge { (check) throws(PlaceDecodeFailure) in
                check.serverReason(NominatimReverseDecoder.errorMessage(bytes))
                if let p = try NominatimReverseDecoder.decode(bytes) {
                    check.place(name: p.name, region: p.region, country: p.country, countryCode: p.countryCode, "place")
                }
            }
        }
    }

    static let geocoding = jsonTarget(
        name: "geocoding", about: "Open-Meteo geocoding /v1/search, and its error body",
        seedNames: ["open-meteo-geocoding.json", "open-meteo-geocoding-empty.json", "open-meteo-geocoding-error.json"]
    ) { _ in
        { bytes in
            FuzzCheck.judge { (check) throws(PlaceDecodeFailure) in
                check.serverReason(OpenMeteoGeocodingDecoder.errorReason(bytes))
                for (i, m) in try OpenMeteoGeocodingDecoder.decode(bytes).enumerated() {
                    check.place(
                        name: m.name, region: m.region, country: m.country, countryCode: m.countryCode, "match[\(i)]")
                    if let population = m.population {
                        check.require(
                            (0...10_000_000_000).contains(population), "match[\(i)].population is \(population)")
                    }
                }
            }
        }
    }
}

extension FuzzCheck {
    /// An API's error text, for an error sentence: capped (`TextCap.serverReason`).
    mutating func serverReason(_ text: String?) {
        guard let text else { return }
        require(text.utf8.count <= TextCap.serverReason, "the error text is \(text.utf8.count) bytes")
    }
}
