import FixcastAdapters
import FixcastCore
import Foundation
import Testing

@testable import FixcastTestSupport

/// Every error a person sees starts with its component ("weather: …"), as `UserFacingError` promises:
/// the live screen, `now` and the CSV export print a reading's problems as their messages, and nothing
/// reads the text to decide whether the component is named already. Each case of each error, built
/// with ordinary values, is checked here, so a new case that forgets the prefix fails.
@Suite(.scratch) struct ErrorMessagePrefixTests {
    static let http: [HTTPError] = [
        .invalidURL("x"), .insecureURL("http://x"), .dnsFailure(host: "h"), .connectionRefused(host: "h"),
        .timedOut(host: "h", seconds: 5), .tls(host: "h", detail: "d"), .bodyTooLarge(limitBytes: 10),
        .tooManyRedirects(limit: 3), .redirectRefused(from: "http://a/", to: "http://b/"), .transport(detail: "d"),
    ]

    static var errors: [any UserFacingError] {
        let later = Date(timeIntervalSince1970: 1_800_000_000)
        var all: [any UserFacingError] = [
            GPSError.unreachable(address: "127.0.0.1:2947", detail: "refused"),
            GPSError.unreachable(address: "127.0.0.1:2947", detail: nil),
            GPSError.watchRefused(address: "a"), GPSError.connectionLost(address: "a"),
            GPSError.noFixInTime(address: "a", attempts: 3, timeoutS: 8),
            GPSError.lostBeforeFix(address: "a", attempts: 3, timeoutS: 8), GPSError.nameNotResolved(address: "a:2947"),
            StorageError.cannotOpen(path: "/p", detail: "d"), StorageError.readOnly(path: "/p"),
            StorageError.diskFull(path: "/p"), StorageError.corrupt(path: "/p", detail: "d"),
            StorageError.newerSchema(path: "/p", version: 99), StorageError.foreign(path: "/p"),
            StorageError.failed(path: "/p", detail: "d"), StorageError.missing(path: "/p"),
            StorageError.unreadable(path: "/p", detail: "d"),
            StorageError.needsUpgrade(path: "/p", version: 1, current: 2),
            StorageError.heldByRun(path: "/p", pid: 42), StorageError.heldByRun(path: "/p", pid: nil),
            ExportError.cannotCreate(path: "/p", detail: "d"), ExportError.writeFailed(target: "/p", detail: "d"),
            ExportError.storage(.diskFull(path: "/p")),
            PlaceError.status(service: "nominatim", code: 503, detail: nil),
            PlaceError.invalidResponse(service: "nominatim", detail: "d"), PlaceError.noPlaceNamed("Nowhere"),
            PlaceError.offlineDataMissing(detail: "d"),
            WeatherError.offline, AlertError.offline, AlertError.countryUnknown(detail: "d"),
        ]
        for p in WeatherProviderID.allCases {
            all += http.map { WeatherError.transport(provider: p, $0) }
            all += [
                WeatherError.status(provider: p, code: 503, detail: "busy", retryAfter: "120"),
                WeatherError.status(provider: p, code: 404, detail: nil),
                WeatherError.invalidResponse(provider: p, detail: "d"),
                WeatherError.backingOff(provider: p, until: later), WeatherError.missingAPIKey(provider: p),
            ]
        }
        all += http.map { PlaceError.transport(service: "nominatim", $0) }
        for s in AlertSourceID.allCases {
            all += http.map { AlertError.transport(source: s, $0) }
            all += [
                AlertError.status(source: s, code: 429, detail: nil, retryAfter: "60"),
                AlertError.invalidResponse(source: s, detail: "d"), AlertError.backingOff(source: s, until: later),
            ]
        }
        for cause in [MQTTFailureCause.dns, .tcp, .tls, .auth, .protocolError, .lost] {
            all += [
                MQTTError(cause: cause, broker: "127.0.0.1:1883"), MQTTError(cause: cause, broker: "b", detail: "d."),
            ]
        }
        all += [
            WeatherValueProblem(field: "temperature_c", cause: .absurd),
            WeatherValueProblem(field: "weather_code", cause: .unknownCode(1234)),
            WeatherValueProblem(field: "x", cause: .unreadable(detail: "d")),
        ]
        return all
    }

    @Test func everyMessageStartsWithItsComponent() {
        let errors = Self.errors
        #expect(errors.count > 60)
        for error in errors {
            #expect(error.message.hasPrefix(error.component.rawValue + ": "), "\(error.component): \(error.message)")
        }
    }

    /// A network failure says what to do, not only what happened: each of the weather, place and alert
    /// services' transfer and status errors ends with an action (a setting to check, the network, or that
    /// fixcast tries again by itself) after the "; " that closes what went wrong.
    @Test func everyNetworkErrorSaysWhatToDo() {
        var network: [any UserFacingError] = []
        for p in WeatherProviderID.allCases {
            network += Self.http.map { WeatherError.transport(provider: p, $0) }
            network += [401, 403, 404, 429, 503].map { WeatherError.status(provider: p, code: $0, detail: nil) }
        }
        for service in [PlaceServiceName.nominatim, PlaceServiceName.openMeteoGeocoding] {
            network += Self.http.map { PlaceError.transport(service: service, $0) }
            network += [403, 404, 429, 503].map { PlaceError.status(service: service, code: $0, detail: nil) }
            network.append(PlaceError.invalidResponse(service: service, detail: "d"))
        }
        for s in AlertSourceID.allCases { network += Self.http.map { AlertError.transport(source: s, $0) } }
        let actions = ["check ", "try again", "tries again", "choose another", "set ", "install "]
        for error in network {
            let tail = error.message.split(separator: ";").dropFirst().joined(separator: ";")
            #expect(actions.contains { tail.contains($0) }, "\(error.message)")
        }
        // The setting named is the service's own.
        #expect(
            PlaceError.transport(service: PlaceServiceName.openMeteoGeocoding, .timedOut(host: "h", seconds: 5))
                .message.contains("places.search_url"))
        for code in [401, 403] {
            for p in [WeatherProviderID.metNorway, .openMeteo] {
                #expect(!WeatherError.status(provider: p, code: code, detail: nil).message.contains("api_key"))
            }
            #expect(WeatherError.status(provider: .openWeatherMap, code: code, detail: nil).message.contains("api_key"))
        }
    }

    @Test func theLastKnownNoteStartsWithGPS() throws {
        var position = Position(
            fix: Fix(
                time: Date(timeIntervalSince1970: 0), receivedAt: Date(timeIntervalSince1970: 0),
                coordinate: Coordinate(lat: 52.5, lon: 13.4)!, mode: .threeD))
        position.source = .lastKnown
        let note = try #require(
            ReadingRequest.lastKnownNote(
                for: position, because: .fixWait(.noFix(attempts: 3, timeoutS: 8), address: "127.0.0.1:2947"),
                at: Date(timeIntervalSince1970: 3600)))
        #expect(note.component == .gps)
        #expect(note.message.hasPrefix("gps: "), "\(note.message)")
    }
}
