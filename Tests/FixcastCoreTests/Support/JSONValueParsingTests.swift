import Foundation
import Testing

@testable import FixcastText

@Suite struct JSONValueParsingTests {
    /// Keys in document order, also for many keys (the duplicate check switches to a set at 16)
    /// and for sibling objects with different orders (each object gets its own order).
    @Test func keyOrderIsDocumentOrder() throws {
        let keys = (0..<40).map { "k\(($0 * 17) % 40)" }
        let text = "{" + keys.map { #""\#($0)":[{"b":1,"a":2},{"a":3,"b":4}]"# }.joined(separator: ",") + "}"
        let value = try JSONValue.parse(text)
        #expect(value.objectValue?.map(\.0) == keys)
        #expect(value["k17"]?[0]?.objectValue?.map(\.0) == ["b", "a"])
        #expect(value["k17"]?[1]?.objectValue?.map(\.0) == ["a", "b"])
        #expect(value["k17"]?[1]?["b"]?.intValue == 4)
        #expect(value.serialized() == text)
    }

    @Test func escapedKeysKeepTheirPlace() throws {
        let value = try JSONValue.parse(#"{"z":1,"\u00e9\n":2,"a":3}"#)
        #expect(value.objectValue?.map(\.0) == ["z", "é\n", "a"])
        #expect(value["é\n"]?.intValue == 2)
    }

    @Test func numbersKeepTheirKind() throws {
        let value = try JSONValue.parse("[1, 1.0, -0, 1e2, 9007199254740993, 2.5]")
        #expect(value.serialized() == "[1,1.0,0,100.0,9007199254740993,2.5]")
    }

    /// Every recorded API response parses, keeps its key order, and agrees with an independent
    /// parser (Foundation's JSONSerialization) on every value.
    @Test(arguments: [
        "open-meteo-forecast.json", "metno-compact.json", "owm-forecast.json", "owm-current.json",
        "nominatim-reverse-jsonv2-zoom12.json", "open-meteo-geocoding.json", "nominatim-error-400.json",
    ])
    func recordedResponses(_ name: String) throws {
        let bytes = try CoreFixtures.bytes(name)
        let value = try JSONValue.parse(bytes)
        let reference = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        #expect(Self.agrees(value, reference), "\(name)")
        // Written again and read back: the same value, keys in the same order.
        #expect(try JSONValue.parse(value.serialized()).serialized() == value.serialized())
    }

    /// Top-level keys in file order (listed here as Python's json module, which keeps order, reads them).
    @Test func recordedResponsesKeepKeyOrder() throws {
        let owm = try JSONValue.parse(try CoreFixtures.bytes("owm-current.json"))
        #expect(
            owm.objectValue?.map(\.0) == [
                "coord", "weather", "base", "main", "visibility", "wind", "rain", "clouds",
                "dt", "sys", "timezone", "id", "name", "cod",
            ])
        let openMeteo = try JSONValue.parse(try CoreFixtures.bytes("open-meteo-forecast.json"))
        #expect(
            openMeteo.objectValue?.map(\.0) == [
                "latitude", "longitude", "generationtime_ms", "utc_offset_seconds", "timezone",
                "timezone_abbreviation", "elevation", "current_units", "current",
                "hourly_units", "hourly", "daily_units", "daily",
            ])
    }

    static func agrees(_ value: JSONValue, _ reference: Any) -> Bool {
        switch value {
        case .null: return reference is NSNull
        case .bool(let b): return (reference as? Bool) == b
        case .int(let i): return (reference as? NSNumber)?.int64Value == Int64(i)
        case .double(let d): return (reference as? NSNumber)?.doubleValue == d
        case .string(let s): return (reference as? String) == s
        case .array(let items):
            guard let other = reference as? [Any], other.count == items.count else { return false }
            return zip(items, other).allSatisfy { agrees($0, $1) }
        case .object(let members):
            guard let other = reference as? [String: Any], other.count == members.count else { return false }
            return members.allSatisfy { key, v in other[key].map { agrees(v, $0) } ?? false }
        }
    }
}
