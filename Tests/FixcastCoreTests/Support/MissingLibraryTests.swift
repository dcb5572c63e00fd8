import FixcastCore
import Testing

/// A library the shims open at first use and cannot: the package to install, and the one sentence of
/// each component that opens one.
@Suite struct MissingLibraryTests {
    @Test(arguments: [
        ("libcurl.so.4", "libcurl4"), ("libgps.so.28", "libgps28"), ("libgps.so.30", "libgps30"),
        ("libmosquitto.so.1", "libmosquitto1"),
        // Named before the rule: the rule would say libxml2-2; libxml2.so.16 (2.14) follows it.
        ("libxml2.so.2", "libxml2"), ("libxml2.so.16", "libxml2-16"),
        // Debian policy 8.1: a name that ends in a digit takes a hyphen before the version.
        ("libfoo2.so.1", "libfoo2-1"), ("libbar.so.1.2.3", "libbar1"),
        // Not a soname: named as it is rather than guessed.
        ("libnothing", "libnothing"), (".so.4", ".so.4"),
    ])
    func packageFollowsDebianNaming(soname: String, package: String) {
        #expect(MissingLibrary(soname: soname, detail: "").package == package)
    }

    static let curl = MissingLibrary(
        soname: "libcurl.so.4", detail: "libcurl.so.4: cannot open shared object file: No such file or directory")

    @Test func theClauseNamesTheLibraryWhyAndWhatToInstall() {
        #expect(
            Self.curl.clause
                == "libcurl.so.4 cannot be loaded (cannot open shared object file: No such file or directory); install it with apt install libcurl4"
        )
        // A path is the loader's own text, kept whole.
        let masked = MissingLibrary(
            soname: "libcurl.so.4", detail: "/lib/x86_64-linux-gnu/libcurl.so.4: file too short")
        #expect(
            masked.clause.hasPrefix(
                "libcurl.so.4 cannot be loaded (/lib/x86_64-linux-gnu/libcurl.so.4: file too short); "))
        let bare = MissingLibrary(soname: "libgps.so.28", detail: "")
        #expect(bare.clause == "libgps.so.28 cannot be loaded; install it with apt install libgps28")
        // The loader's text is outside text: no control character, no line break reaches a terminal.
        let hostile = MissingLibrary(soname: "libx.so.1", detail: "/opt/\u{1B}[2Jlib\nx.so.1: file too short.")
        #expect(!hostile.clause.contains("\u{1B}") && !hostile.clause.contains("\n"))
    }

    @Test func eachComponentSaysItInOneSentence() {
        let weather = WeatherError.transport(provider: .openMeteo, .libraryMissing(Self.curl)).message
        #expect(weather.hasPrefix("weather: ") && weather.hasSuffix("apt install libcurl4."))
        let gps = GPSError.libraryMissing(MissingLibrary(soname: "libgps.so.28", detail: "")).message
        #expect(
            gps == "gps: libgps.so.28 cannot be loaded; install it with apt install libgps28, or pass --at LAT,LON.")
        let mqtt = MQTTError(
            cause: .library, broker: "127.0.0.1:1883",
            detail: MissingLibrary(soname: "libmosquitto.so.1", detail: "").clause
        ).message
        #expect(
            mqtt
                == "mqtt: libmosquitto.so.1 cannot be loaded; install it with apt install libmosquitto1; readings wait in the outbox."
        )
        for message in [weather, gps, mqtt] {
            // One sentence on one line: it ends with a full stop and has no other sentence end.
            #expect(message.hasSuffix(".") && !message.dropLast().contains(". ") && !message.contains("\n"))
        }
    }
}
