import Testing

@testable import FixcastCore

@Suite("GPSDAddress")
struct GPSDAddressTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1", 2947, "127.0.0.1:2947"),
        ("127.0.0.1:2948", "127.0.0.1", 2948, "127.0.0.1:2948"),
        ("localhost", "localhost", 2947, "localhost:2947"),
        ("pi.local:1", "pi.local", 1, "pi.local:1"),
        ("gps-box_2:65535", "gps-box_2", 65535, "gps-box_2:65535"),
        ("[::1]:2947", "::1", 2947, "[::1]:2947"),
        ("[::1]", "::1", 2947, "[::1]:2947"),
        ("::1", "::1", 2947, "[::1]:2947"),
        ("[fe80::1%eth0]:3000", "fe80::1%eth0", 3000, "[fe80::1%eth0]:3000"),
        (" 10.0.0.2:2947 ", "10.0.0.2", 2947, "10.0.0.2:2947"),
    ])
    func valid(text: String, host: String, port: Int, shown: String) throws {
        let a = try GPSDAddress(parsing: text)
        #expect(a.host == host)
        #expect(a.port == port)
        #expect(a.description == shown)
    }

    @Test(arguments: ["nonsense:port", "host:0", "host:65536", "host:", "host:-1", "host:99999999", "host:29 47"])
    func badPort(text: String) {
        #expect(throws: GPSDAddressError.badPort(option: "--gpsd", text: text)) { try GPSDAddress(parsing: text) }
    }

    @Test(arguments: [
        ":2947", "bad host:2947", "[::1", "[::1]x", "[nothex]:2947", "-leading:2947", "a/b", "h\u{e9}te:2947", "1:2:zz",
    ])
    func badHost(text: String) {
        #expect(throws: GPSDAddressError.badHost(option: "--gpsd", text: text)) { try GPSDAddress(parsing: text) }
    }

    @Test(arguments: ["", "   "])
    func empty(text: String) {
        #expect(throws: GPSDAddressError.empty(option: "--gpsd")) { try GPSDAddress(parsing: text) }
    }

    @Test func messagesNameTheOptionAndTheFix() {
        do {
            _ = try GPSDAddress(parsing: "nonsense:port")
            Issue.record("must throw")
        } catch {
            #expect(error.component == .config)
            #expect(
                error.message
                    == "config: --gpsd \"nonsense:port\" has no valid port; use a number from 1 to 65535, for example 127.0.0.1:2947."
            )
        }
        #expect(GPSDAddressError.badHost(option: "gps.host", text: "a b").message.contains("gps.host"))
    }

    @Test func fromConfigValues() throws {
        let a = try GPSDAddress(host: "127.0.0.1", port: 2948)
        #expect(a.description == "127.0.0.1:2948")
        #expect(try GPSDAddress(host: "::1", port: 2947).description == "[::1]:2947")
        #expect(try GPSDAddress(host: "[::1]", port: 2947).host == "::1")
        #expect(throws: GPSDAddressError.badPort(option: "gps.port", text: "h:0")) {
            try GPSDAddress(host: "h", port: 0, option: "gps.port")
        }
        #expect(throws: GPSDAddressError.badHost(option: "gps.host", text: "")) { try GPSDAddress(host: "", port: 1) }
        #expect(GPSDAddress.local.description == "127.0.0.1:2947")
    }
}
