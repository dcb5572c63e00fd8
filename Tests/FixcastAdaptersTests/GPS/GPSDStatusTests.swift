import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

@Suite("GPSDStatus probe against a real gpsd", .scratch)
struct GPSDStatusTests {
    @Test("a running gpsd with a receiver that has a fix: reachable, its device, a fix")
    func reachableWithFix() async throws {
        let fake = try GPSFake(log: TestPaths.fixture("gpsd/bu303-moving.log"))
        defer { fake.stop() }
        let status = await GPSDStatus.probe(host: "127.0.0.1", port: Int(fake.port), timeout: 10)
        #expect(status.reachable)
        #expect(status.device?.hasPrefix("/dev/pts/") == true)
        #expect(status.lastFix != nil)
        #expect(status.error == nil)
    }

    @Test("a running gpsd whose receiver has no fix: reachable, no fix within the look")
    func reachableWithoutFix() async throws {
        let gpsd = try GPSDOnPTY()
        defer { gpsd.stop() }
        let status = await GPSDStatus.probe(address: try GPSDAddress(parsing: "127.0.0.1:\(gpsd.port)"), timeout: 3)
        #expect(status.reachable)
        #expect(status.device == gpsd.slavePath)
        #expect(status.lastFix == nil)
    }

    @Test("nothing listening: not reachable, with the error to show")
    func unreachable() async throws {
        let port = freeLoopbackPort()
        let status = await GPSDStatus.probe(host: "127.0.0.1", port: Int(port), timeout: 2)
        #expect(!status.reachable)
        #expect(status.device == nil)
        #expect(status.error?.message.contains("127.0.0.1:\(port) is not answering") == true)
    }
}
