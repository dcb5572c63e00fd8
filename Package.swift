// swift-tools-version:6.0
import PackageDescription

// The architecture (DESIGN.md "Layers"). Each layer is a target, and a target can only import what it
// depends on, so an arrow that points up is a build error, not a code-review finding:
//
//   fixcast (executable: options per command, help, commands)
//     └─▶ FixcastApp (the agent's event loop, reading services, rendering, export writers)
//           └─▶ FixcastAdapters (gpsd, HTTP, SQLite, MQTT, terminal, signals, clocks, files: the ports' implementations)
//                 └─▶ FixcastCore (pure: models, policies, the agent's reducer, decoders, the ports in Ports/)
//                       └─▶ leaf libraries: FixcastText (JSON, TOML, CSV, XML and terminal text)
//                 └─▶ C shims (CGPS, CCurl, CSQLite, CMosquitto, CSystem): the only callers of the C libraries,
//                     imported with `internal import` so no C type reaches a public declaration
//
// FixcastCore depends on nothing but FoundationEssentials, the leaf libraries and CMath (libm's pure
// functions); a leaf library on FoundationEssentials and lower leaves only. No package dependencies: C
// libraries come from Debian's -dev packages.
let package = Package(
    name: "fixcast",
    products: [
        .executable(name: "fixcast", targets: ["fixcast"])
    ],
    targets: [
        // C shims. libgps, libcurl and libmosquitto are not linked: their shims open them with dlopen at
        // first use, so a command that never talks to gpsd, HTTP or MQTT never loads them (issue 22:
        // `fixcast line` ≤ 20 ms, ≤ 12 MB). Only their headers are needed to build.
        .target(name: "CGPS"),
        .target(name: "CCurl"),
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CSystem"),
        .target(name: "CMosquitto"),
        // The C library's elementary functions (sin, cos, log...): pure, so the core may use them.
        .target(name: "CMath", linkerSettings: [.linkedLibrary("m")]),
        // Leaf libraries: pure code that is not the domain.
        // Text formats: the JSON parser and writer, the TOML subset, CSV, XML and terminal text.
        .target(name: "FixcastText"),
        // Pure domain.
        .target(name: "FixcastCore", dependencies: ["FixcastText", "CMath"]),
        // Everything that touches the OS or a C library.
        .target(
            name: "FixcastAdapters",
            dependencies: ["FixcastCore", "FixcastText", "CGPS", "CCurl", "CSQLite", "CSystem", "CMosquitto"]),
        // The agent, the services that make a reading, and what people see.
        .target(name: "FixcastApp", dependencies: ["FixcastCore", "FixcastText", "FixcastAdapters"]),
        // The command line.
        .executableTarget(
            name: "fixcast", dependencies: ["FixcastApp", "FixcastAdapters", "FixcastCore", "FixcastText"]),
        // Benchmarks (bench/*.sh); timing never goes into tests.
        .executableTarget(
            name: "fixcast-bench", dependencies: ["FixcastApp", "FixcastAdapters", "FixcastCore", "FixcastText"],
            path: "bench/Sources/fixcast-bench"),
        // One test target per library, mirroring its folders (FixcastTests: adapters, app and the binary).
        .testTarget(name: "FixcastTextTests", dependencies: ["FixcastText"]),
        .testTarget(name: "FixcastCoreTests", dependencies: ["FixcastCore", "FixcastText"]),
        .testTarget(
            name: "FixcastTests",
            dependencies: ["fixcast", "FixcastApp", "FixcastAdapters", "FixcastCore", "FixcastText"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
