// swift-tools-version:6.0
import PackageDescription

// The architecture (DESIGN.md "Layers"). Each layer is a target, and a target can only import what it
// depends on, so an arrow that points up is a build error, not a code-review finding:
//
//   fixcast (executable: options per command, help, commands)
//     └─▶ FixcastApp (the agent's event loop, reading services, export writers, where readings are shown)
//           ├─▶ FixcastRendering (what people see: the trip report, the live screen, the status line, text)
//           │     └─▶ FixcastCore
//           └─▶ FixcastAdapters (gpsd, HTTP, SQLite, MQTT, XML, terminal, signals, clocks, files: the ports' implementations)
//                 ├─▶ FixcastCore (pure: models, policies, the agent's reducer, decoders, the ports in Ports/)
//                 │     └─▶ leaf libraries: FixcastText (JSON, TOML, CSV, XML text and element trees, terminal text),
//                 │         FixcastTables (the geometry tables' file formats: places.bin and its k-d tree,
//                 │         alert-areas.bin and its exact ring containment, basemap.bin)
//                 └─▶ C shims (CGPS, CCurl, CSQLite, CMosquitto, CXML, CSystem): the only callers of the C
//                     libraries, imported with `internal import` so no C type reaches a public declaration;
//                     CGPS, CCurl, CMosquitto and CXML open their library at first use through CLazyLibrary
//
// FixcastCore depends on nothing but FoundationEssentials, the leaf libraries and CMath (libm's pure
// functions); a leaf library on FoundationEssentials and lower leaves only, except that FixcastTables
// also uses CMath's sin, cos and asin for the k-d tree's unit vectors (the C library's answers are the
// ones every places.bin was built with, so a polynomial would move its trees). No package dependencies:
// C libraries come from Debian's -dev packages.
//
// Where this differs from DESIGN.md's table, which counts rendering among the leaf libraries (that import
// FoundationEssentials and each other only): FixcastRendering draws the domain's own values (Reading,
// Alert, AheadForecast, Settings, the trip's TripReading and TripAlertPeriod), so it depends on FixcastCore
// (and FixcastText) and sits above it, beside FixcastAdapters, which it does not import. Giving it plain
// inputs instead would mean a second copy of those types. The geometry tables are split: their file
// formats, bounds-checked readers, k-d tree and ring containment are the FixcastTables leaf, on plain
// values (degrees, the files' integer micro-degrees, indices, bytes) with its own error
// (TableFormatError); FixcastCore keeps the domain's wrappers (OfflinePlaceTable, NearestPlaceIndex,
// AlertAreaTable turn them into places, coordinates and alert areas) and the data-table port
// (PlaceTableStorage, the leaf's TableStorage). The base map's reader and its values (BasemapImage, GeoBox,
// BasemapLine) are the leaf's own and are drawn by FixcastRendering directly. DESIGN.md's C shims are
// CGPS, CCurl, CSQLite, CMosquitto and CSystem; CXML (libxml2, for MeteoAlarm's Atom feeds and GPX route
// files) is one more of the same kind, and the XML it reads reaches the core as FixcastText's plain tree
// (XMLElement) or, streamed, through FixcastText's XMLContentHandler (the core's GPXRouteBuilder), so the
// core still parses no protocol and calls no C library.
let package = Package(
    name: "fixcast",
    products: [
        .executable(name: "fixcast", targets: ["fixcast"])
    ],
    targets: [
        // C shims. libgps, libcurl, libmosquitto and libxml2 are not linked: their shims open them with
        // dlopen at first use, so a command that never talks to gpsd, HTTP or MQTT, or never reads XML,
        // never loads them (issue 22: `fixcast line` ≤ 20 ms, ≤ 12 MB). Only their headers are needed to
        // build. CLazyLibrary is the one dlopen-at-first-use loader the four share.
        .target(name: "CLazyLibrary"),
        .target(name: "CGPS", dependencies: ["CLazyLibrary"]),
        .target(name: "CCurl", dependencies: ["CLazyLibrary"]),
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CSystem"),
        .target(name: "CMosquitto", dependencies: ["CLazyLibrary"]),
        // libxml2's headers live in their own folder (libxml2-dev), which only cxml.c includes: its
        // public header names no libxml2 type, so the Swift that imports CXML needs no such path.
        .target(name: "CXML", dependencies: ["CLazyLibrary"], cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])]),
        // The C library's elementary functions (sin, cos, log...): pure, so the core may use them.
        .target(name: "CMath", linkerSettings: [.linkedLibrary("m")]),
        // Leaf libraries: pure code that is not the domain.
        // Text formats: the JSON parser and writer, the TOML subset, CSV, XML text, the XML element tree
        // (a plain value: the adapters' libxml2 reader builds it, the core reads it), the streaming
        // reader's handler protocol, and terminal text.
        .target(name: "FixcastText"),
        // Geometry tables: the file formats of places.bin (and its text source), alert-areas.bin and
        // basemap.bin, their bounds-checked readers, the k-d tree and the exact ring containment.
        .target(name: "FixcastTables", dependencies: ["CMath"]),
        // Pure domain.
        .target(name: "FixcastCore", dependencies: ["FixcastText", "FixcastTables", "CMath"]),
        // What people see, drawn from the domain's values: the trip report, the live screen, text.
        .target(name: "FixcastRendering", dependencies: ["FixcastCore", "FixcastTables", "FixcastText"]),
        // Everything that touches the OS or a C library.
        .target(
            name: "FixcastAdapters",
            dependencies: [
                "FixcastCore", "FixcastTables", "FixcastText", "CGPS", "CCurl", "CSQLite", "CSystem", "CMosquitto",
                "CXML",
            ]),
        // The agent, the services that make a reading, the export writers, and where readings are shown.
        .target(
            name: "FixcastApp",
            dependencies: ["FixcastRendering", "FixcastAdapters", "FixcastCore", "FixcastText"]),
        // The command line.
        .executableTarget(
            name: "fixcast",
            dependencies: ["FixcastApp", "FixcastRendering", "FixcastAdapters", "FixcastCore", "FixcastText"]),
        // Benchmarks (bench/*.sh); timing never goes into tests.
        .executableTarget(
            name: "fixcast-bench",
            dependencies: [
                "FixcastApp", "FixcastRendering", "FixcastAdapters", "FixcastCore", "FixcastText", "FixcastFuzz",
            ],
            path: "bench/Sources/fixcast-bench"),
        // The fuzz targets of every decoder of outside data (mutators, seeds, the house rules checked on
        // what decodes): `fixcast-bench fuzz` runs long campaigns, the core tests a bounded seeded few.
        // FixcastAdapters for the documents libxml2 reads (GPX routes, MeteoAlarm's feeds): they are
        // fuzzed as production reads them, through the parser. No product ships it.
        .target(
            name: "FixcastFuzz", dependencies: ["FixcastCore", "FixcastTables", "FixcastText", "FixcastAdapters"],
            path: "bench/Sources/FixcastFuzz"),
        // One test target per library, mirroring its folders; FixcastTests holds the executable's
        // (through-the-binary) tests and, in Tests/FixcastTests/Fixtures, the fixtures all of them read.
        .testTarget(name: "FixcastTextTests", dependencies: ["FixcastText", "FixcastFuzz"]),
        .testTarget(name: "FixcastTablesTests", dependencies: ["FixcastTables"]),
        // FixcastAdapters for the recorded MeteoAlarm feeds and routes only: the core reads XML as a tree
        // or a handler and has no parser, so its tests read the recordings with the adapters' (libxml2)
        // as production does.
        // FixcastFuzz for the bounded, seeded share of the fuzz campaign.
        .testTarget(
            name: "FixcastCoreTests",
            dependencies: ["FixcastCore", "FixcastTables", "FixcastText", "FixcastAdapters", "FixcastFuzz"]),
        .testTarget(
            name: "FixcastRenderingTests",
            dependencies: ["FixcastRendering", "FixcastCore", "FixcastTables", "FixcastText", "FixcastTestSupport"]),
        .testTarget(
            name: "FixcastAdaptersTests",
            dependencies: ["FixcastAdapters", "FixcastCore", "FixcastTables", "FixcastText", "FixcastTestSupport"]),
        .testTarget(
            name: "FixcastAppTests",
            dependencies: [
                "FixcastApp", "FixcastRendering", "FixcastAdapters", "FixcastCore", "FixcastText",
                "FixcastTestSupport",
            ]),
        .testTarget(
            name: "FixcastTests",
            dependencies: [
                "fixcast", "FixcastApp", "FixcastRendering", "FixcastAdapters", "FixcastCore", "FixcastText",
                "FixcastTestSupport", "FixcastFuzz",
            ],
            exclude: ["Fixtures"]),
        // What the test targets share: scratch folders (TestScratch), the fixture server, gpsfake and
        // mosquitto harnesses, the binary's runners (CLIRunner, RunningFixcast), store and display data.
        // A library only tests use (no product ships it).
        .target(
            name: "FixcastTestSupport",
            dependencies: [
                "FixcastApp", "FixcastRendering", "FixcastAdapters", "FixcastCore", "FixcastText",
            ],
            path: "Tests/FixcastTestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
