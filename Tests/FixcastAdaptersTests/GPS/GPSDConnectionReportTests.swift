import FixcastCore
import Foundation
import Testing

@testable import FixcastAdapters
@testable import FixcastTestSupport

/// gpsd's objects as libgps unpacks them through the shim, from a stand-in gpsd that sends them.
@Suite("gpsd's reports through the shim", .serialized)
struct GPSDConnectionReportTests {
    static let version =
        "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}"

    /// Reads what the stand-in sent (it sends at once; a few tries for the bytes to arrive).
    static func events(_ lines: [String], everySky: Bool = false, host: String = "127.0.0.1") async throws
        -> [GPSEvent]
    {
        let gpsd = try StandInGPSD(.sends(lines))
        let connection = GPSDConnection(
            address: try GPSDAddress(host: host, port: Int(gpsd.port)),
            skyIntervalS: everySky ? 0 : SkyThinning.defaultIntervalS)
        guard case .opened = connection.open() else {
            Issue.record("the stand-in takes the connection")
            return []
        }
        defer { connection.close() }
        var events: [GPSEvent] = []
        // A second of reads: the stand-in sends everything at once, on loopback.
        for _ in 0..<50 {
            if connection.hasWaitingReport { _ = connection.readAvailable(into: &events) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return events
    }

    /// A SKY with only the DOPs (gpsd sends them between the ones with satellites) set the counts to 0
    /// ("0 sats" on the screen, on every track point); it is not a count. A TPV with `eph` alone (no
    /// epx/epy: u-blox hAcc without a DOP message) kept no horizontal error.
    @Test func aSkyOfDOPsIsNoCountAndEphAloneIsKept() async throws {
        let time = Date().addingTimeInterval(-5)
        let stamp = ISO8601DateFormatter().string(from: time)
        let events = try await Self.events([
            Self.version,
            "{\"class\":\"SKY\",\"device\":\"/dev/x\",\"satellites\":[{\"PRN\":4,\"el\":16,\"az\":162,\"ss\":46,\"used\":true},{\"PRN\":7,\"el\":84,\"az\":207,\"ss\":48,\"used\":false}]}",
            "{\"class\":\"SKY\",\"device\":\"/dev/x\",\"hdop\":1.2,\"pdop\":2.0}",
            "{\"class\":\"TPV\",\"device\":\"/dev/x\",\"mode\":3,\"time\":\"\(stamp)\",\"lat\":52.5,\"lon\":13.4,\"eph\":12}",
        ])
        #expect(events.contains { if case .connected = $0 { true } else { false } }, "\(events)")
        let counts = events.compactMap { if case .satellites(let u, let v) = $0 { (u, v) } else { nil } }
        #expect(counts.count == 1, "\(events)")
        #expect(counts.first.map { $0.0 == 1 && $0.1 == 2 } == true, "\(counts)")
        let fix = try #require(events.compactMap(\.fix).first, "\(events)")
        #expect(fix.horizontalErrorM == 12)
        #expect(fix.satellitesUsed == 1)
    }

    /// A DEVICES object in many shapes made libgps's unpack retry the line for ever (more than 4
    /// devices, a number that is not one, a path longer than its buffer, an object for a value, a
    /// line cut short): the loop thread spun and never answered a signal. libgps never sees one: the
    /// fixes after it come, and the first device's path is still named.
    @Test(.timeLimit(.minutes(1)))
    func aDevicesObjectNeverReachesLibgps() async throws {
        func devices(_ n: Int, spaced: Bool = false) -> String {
            let list = (0..<n).map { "{\"class\":\"DEVICE\",\"path\":\"/dev/ttyUSB\($0)\"}" }
            return spaced
                ? "{\"class\": \"DEVICES\", \"devices\" : [ \(list.joined(separator: " , ")) ]}"
                : "{\"class\":\"DEVICES\",\"devices\":[\(list.joined(separator: ","))]}"
        }
        let stamp = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-5))
        let tpv =
            "{\"class\":\"TPV\",\"device\":\"/dev/x\",\"mode\":3,\"time\":\"\(stamp)\",\"lat\":52.5,\"lon\":13.4}"
        let events = try await Self.events([
            Self.version, devices(5), devices(40, spaced: true), "{\"class\":\"DEVICES\",\"devices\":[1,2,3,4,5]}",
            "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/a\",\"bps\":\"x\"}]}",
            "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":\"/dev/\(String(repeating: "p", count: 400))\"}]}",
            "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"path\":{\"a\":[1]}}]}",
            "{\"class\":\"DEVICES\",\"devices\":[{\"class\":\"DEVICE\",\"pa",
            tpv,
        ])
        #expect(events.compactMap(\.fix).count == 1, "\(events)")
        let four = try await Self.events([Self.version, devices(4)])
        #expect(four.contains { if case .device("/dev/ttyUSB0") = $0 { true } else { false } }, "\(four)")
    }

    /// `gps.host` as a name: the shim looks it up once, within the connect timeout, and hands libgps
    /// the address that took the probe's connection (libgps would look the name up again, with no time
    /// limit). "localhost" may give ::1 first, which the stand-in (on 127.0.0.1) refuses: the next
    /// address is tried, and the connection reaches the stand-in.
    @Test func aHostNameIsLookedUpOnceAndConnects() async throws {
        let events = try await Self.events([Self.version], host: "localhost")
        #expect(events.contains { if case .connected = $0 { true } else { false } }, "\(events)")
    }

    /// A gpsd on another machine that loses its power sends no FIN: without keep-alive the connection
    /// stayed open for ever (the fix lost, gpsd never). The socket asks the kernel to probe it.
    @Test func theSocketIsKeptAliveByTheKernel() throws {
        let gpsd = try StandInGPSD(.sends([Self.version]))
        let connection = GPSDConnection(address: try GPSDAddress(host: "127.0.0.1", port: Int(gpsd.port)))
        guard case .opened = connection.open(), let fd = connection.descriptor else {
            Issue.record("the stand-in takes the connection")
            return
        }
        defer { connection.close() }
        func option(_ level: Int32, _ name: Int32) -> Int32 {
            var value: Int32 = -1
            var size = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, level, name, &value, &size) == 0 ? value : -1
        }
        #expect(option(SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 30)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPINTVL) == 10)
        #expect(option(Int32(IPPROTO_TCP), TCP_KEEPCNT) == 3)
    }

    /// Two receivers on one gpsd, one with a fix and one without, interleaved: the fix was lost and
    /// found at every report, and the second's empty sky replaced the first's satellite count. Now the
    /// one without a fix does not count while the other gives fixes.
    @Test func aSecondReceiverWithoutAFixDoesNotMakeTheFixFlap() async throws {
        let start = Date().addingTimeInterval(-20)
        var lines = [Self.version]
        let sky =
            "\"satellites\":[{\"PRN\":4,\"el\":16,\"az\":162,\"ss\":46,\"used\":true},{\"PRN\":7,\"el\":84,\"az\":207,\"ss\":48,\"used\":false}]"
        for i in 0..<6 {
            let stamp = ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(i)))
            lines.append(
                "{\"class\":\"TPV\",\"device\":\"/dev/ttyACM0\",\"mode\":3,\"time\":\"\(stamp)\",\"lat\":52.5,\"lon\":13.4}"
            )
            lines.append("{\"class\":\"SKY\",\"device\":\"/dev/ttyACM0\",\(sky)}")
            lines.append("{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB1\",\"mode\":1,\"time\":\"\(stamp)\"}")
            lines.append("{\"class\":\"SKY\",\"device\":\"/dev/ttyUSB1\",\"satellites\":[]}")
        }
        let events = try await Self.events(lines, everySky: true)
        #expect(events.compactMap(\.fix).count == 6, "\(events)")
        #expect(!events.contains(.noFix), "\(events)")
        let counts = events.compactMap { if case .satellites(let u, let v) = $0 { [u, v] } else { nil } }
        #expect(counts == [[1, 2]], "the first receiver's count only: \(counts)")
    }

    /// Another program's banner is a line, and libgps unpacks any line: it is not gpsd answering.
    @Test func aBannerThatIsNotGPSDsIsNoAnswer() async throws {
        let events = try await Self.events(["SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3", "Protocol mismatch."])
        #expect(!events.contains { if case .connected = $0 { true } else { false } }, "\(events)")
    }
}
