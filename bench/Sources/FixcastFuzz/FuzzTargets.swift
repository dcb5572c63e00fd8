/// Every decoder of outside data fixcast has, as fuzz targets. `fixcast-bench fuzz` runs their campaigns;
/// the test suite runs a bounded, seeded few hundred cases of each.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        json, openMeteo, openMeteoAhead, metNorway, openWeatherMap, nwsAlerts, metAlerts, ecccAlerts, meteoAlarm,
        nominatim,
        geocoding, gpx, config, placesText, placesBinary, alertAreas, basemap, gpsd, httpHeaders,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// A target whose cases are JSON mutations of its seeds (an API's recorded answers), each judged by
    /// the runner `runner` makes from the seeds.
    static func jsonTarget(
        name: String, about: String, seedNames: [String],
        runner: @escaping @Sendable (_ seeds: [[UInt8]]) -> @Sendable ([UInt8]) -> FuzzCaseResult
    ) -> FuzzTarget {
        FuzzTarget(name: name, about: about, seedNames: seedNames) { seeds, setup in
            let mutator = JSONMutator(seeds: seeds, maxBytes: setup.maxCaseBytes)
            return FuzzCampaign(seeds: seeds, mutator: { mutator.mutate(&$0) }, runner: runner(seeds))
        }
    }
}
