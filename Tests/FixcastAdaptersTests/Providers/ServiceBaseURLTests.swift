import Testing

@testable import FixcastAdapters

/// The one rule every provider and alert source builds its URLs on.
struct ServiceBaseURLTests {
    static let publicURL = "https://api.example.org"

    @Test(arguments: [
        ("", publicURL),
        ("  \t\n", publicURL),
        ("/", ""),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://127.0.0.1:8080///", "http://127.0.0.1:8080"),
        ("  http://mirror.example/weather/ \n", "http://mirror.example/weather"),
    ])
    func aConfiguredBaseIsTrimmedAndLosesItsTrailingSlashes(configured: String, expected: String) {
        #expect(ServiceBaseURL.resolve(configured, publicURL: Self.publicURL) == expected)
    }

    @Test func thePublicURLKeepsItsPathWithoutATrailingSlash() {
        #expect(ServiceBaseURL.resolve("", publicURL: "https://api.example.org/v2/") == "https://api.example.org/v2")
    }
}
