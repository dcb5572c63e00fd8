import FixcastText

/// Why an API body could not be read as weather: not JSON, a required part missing, a value of the
/// wrong type, or a unit fixcast does not know. `detail` is short and names the JSON path; providers
/// wrap it into `WeatherError.invalidResponse`.
public struct WeatherDecodeError: Error, Sendable, Hashable {
    public let detail: String
    public init(_ detail: String) { self.detail = detail }
}

/// Typed reads from a `JSONValue` that turn a wrong type into a decode error instead of a crash or a
/// silent zero; an absent key or `null` is "unknown" (nil).
enum JSONRead {
    static func number(_ value: JSONValue?, _ path: @autoclosure () -> String) throws(WeatherDecodeError) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let d = value.doubleValue else { throw WeatherDecodeError("\(path()) is not a number") }
        return d
    }

    static func int(_ value: JSONValue?, _ path: @autoclosure () -> String) throws(WeatherDecodeError) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let i = value.intValue else { throw WeatherDecodeError("\(path()) is not a whole number") }
        return i
    }

    static func string(_ value: JSONValue?, _ path: @autoclosure () -> String) throws(WeatherDecodeError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let s = value.stringValue else { throw WeatherDecodeError("\(path()) is not a string") }
        return s
    }

    static func object(_ value: JSONValue?, _ path: @autoclosure () -> String) throws(WeatherDecodeError) -> JSONValue?
    {
        guard let value, !value.isNull else { return nil }
        guard value.objectValue != nil else { throw WeatherDecodeError("\(path()) is not an object") }
        return value
    }

    static func array(_ value: JSONValue?, _ path: @autoclosure () -> String) throws(WeatherDecodeError) -> [JSONValue]?
    {
        guard let value, !value.isNull else { return nil }
        guard let a = value.arrayValue else { throw WeatherDecodeError("\(path()) is not an array") }
        return a
    }

    /// Parses a body as JSON; the error names the byte offset.
    static func parse(_ body: [UInt8]) throws(WeatherDecodeError) -> JSONValue {
        do {
            return try JSONValue.parse(body)
        } catch {
            throw WeatherDecodeError(error.summary)
        }
    }
}
