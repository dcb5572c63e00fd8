import Testing

@testable import FixcastCore

struct QueryEncodingTests {
    @Test(arguments: [
        ("New York", "New%20York"),
        ("A&B", "A%26B"),
        ("a#b", "a%23b"),
        ("a/b", "a%2Fb"),
        ("a+b=c?", "a%2Bb%3Dc%3F"),
        ("São Paulo", "S%C3%A3o%20Paulo"),
        ("Москва", "%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0"),
        ("北京", "%E5%8C%97%E4%BA%AC"),
        ("safe-._~09AZaz", "safe-._~09AZaz"),
        ("100%", "100%25"),
    ])
    func encodesPerRFC3986(_ input: String, _ expected: String) {
        #expect(QueryEncoding.encode(input) == expected)
    }

    @Test func buildsAQuery() {
        #expect(QueryEncoding.query([("name", "a b"), ("count", "5")]) == "name=a%20b&count=5")
    }

    @Test(arguments: [
        (52.52, "52.52"), (-0.00001, "-0.00001"), (13.4050004, "13.405"), (0.0, "0"), (-180.0, "-180"),
        (1e-7, "0"), (6.959234323, "6.959234"),
    ])
    func formatsDegreesWithoutExponent(_ value: Double, _ expected: String) {
        #expect(QueryEncoding.degrees(value) == expected)
    }

    @Test(arguments: [
        (1e-5, "0"), (-12.34567, "-12.3457"), (180.0, "180"), (-0.00004, "0"), (52.5200, "52.52"),
        (-0.00005, "-0.0001"), (Double.nan, "0"), (Double.infinity, "0"), (1e300, "0"),
    ])
    func writesAQueryDecimalWithoutTrailingZerosOrExponent(_ value: Double, _ expected: String) {
        #expect(QueryEncoding.decimal(value, places: 4) == expected)
    }
}
