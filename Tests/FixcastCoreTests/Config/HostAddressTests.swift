import FixcastCore
import Testing

/// One host rule for gps.host, --gpsd and mqtt.host, and one host:port formatter.
@Suite struct HostAddressTests {
    @Test func rule() {
        for good in [
            "127.0.0.1", "broker.lan", "pi-van.local", "my_host", "::1", "[::1]", "fe80::1%eth0", "2001:db8::1",
            "fe80::1%wlan0.10", "fe80::1%br-lan_2",
        ] {
            #expect(HostAddress.isValid(good), "\(good)")
        }
        for bad in [
            "", "-x", ".x", "a b", "a/b", "host\n", ":::", "1::2::3", "[::1", String(repeating: "h", count: 254), "ünï",
            // A zone is an interface name: no escape sequence, space, slash or non-ASCII letter in it.
            "fe80::1%\u{1B}[2J", "fe80::1%eth 0", "fe80::1%a/b", "fe80::1%é", "fe80::1%", "fe80::1%\u{202E}x",
        ] {
            #expect(!HostAddress.isValid(bad), "\(bad.debugDescription)")
        }
        #expect(HostAddress.bare("[::1]") == "::1")
        #expect(HostAddress.bare("broker.lan") == "broker.lan")
    }

    @Test("gps.host and mqtt.host take the same hosts")
    func sameRuleForBoth() {
        for host in ["-x", "a b", "broker.lan", "::1", "bad/host", String(repeating: "h", count: 300)] {
            let gps = (try? ConfigLoader.load(file: nil, environment: ["FIXCAST_GPS_HOST": host])) != nil
            let mqtt = (try? ConfigLoader.load(file: nil, environment: ["FIXCAST_MQTT_HOST": host])) != nil
            #expect(gps == mqtt && gps == HostAddress.isValid(host), "\(host.prefix(20))")
        }
    }

    @Test func display() {
        #expect(HostAddress.display(host: "127.0.0.1", port: 2947) == "127.0.0.1:2947")
        #expect(HostAddress.display(host: "::1", port: 1883) == "[::1]:1883")
        #expect(HostAddress.display(host: "[::1]", port: 1883) == "[::1]:1883")
        #expect(HostAddress.display(host: "broker.lan", port: 8883) == "broker.lan:8883")
    }
}
