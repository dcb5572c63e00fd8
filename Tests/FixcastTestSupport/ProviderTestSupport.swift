import FixcastAdapters
import FixcastApp
import FixcastCore
import Foundation
import Testing

/// Runs `body` and returns the WeatherError it throws (recording an issue if it does not throw).
func weatherError(_ body: () async throws(WeatherError) -> WeatherReport) async -> WeatherError? {
    do {
        _ = try await body()
        Issue.record("expected a WeatherError")
        return nil
    } catch {
        return error
    }
}

/// A short-timeout client for fault tests (the real client, smaller limits).
let quickClient = CurlHTTPClient(limits: .init(connectTimeoutS: 1, totalTimeoutS: 1))
