import Foundation

/// The recorded API responses (kept with the adapter tests' fixtures; found from this file's path).
enum CoreFixtures {
    static let api: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FixcastTests/Fixtures/api")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: api.appendingPathComponent(name)))
    }

    /// The same file read independently with Foundation, for comparing decoded values to the source.
    static func object(_ name: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: api.appendingPathComponent(name))) as? [String: Any]
            ?? [:]
    }
}
