// swift-tools-version:6.0
import PackageDescription

// Layers (DESIGN.md): fixcast (CLI) -> Fixcast (adapters, agent) -> FixcastCore (pure) ; C shims at the bottom.
// No package dependencies: C libraries come from Debian's -dev packages.
let package = Package(
    name: "fixcast",
    products: [
        .executable(name: "fixcast", targets: ["fixcast"])
    ],
    targets: [
        // C shims: the only code that touches libgps, libcurl and libsqlite3 directly.
        .target(name: "CGPS", linkerSettings: [.linkedLibrary("gps")]),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CSQLite", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CMosquitto", linkerSettings: [.linkedLibrary("mosquitto")]),
        // Pure domain: models, geodesy, policies, decoders. No I/O, no clock read directly.
        .target(name: "FixcastCore"),
        // Adapters and the agent.
        .target(name: "Fixcast", dependencies: ["FixcastCore", "CGPS", "CCurl", "CSQLite", "CMosquitto"]),
        // Thin executable.
        .executableTarget(name: "fixcast", dependencies: ["Fixcast", "FixcastCore"]),
        // Benchmarks (bench/*.sh); timing never goes into tests.
        .executableTarget(name: "fixcast-bench", dependencies: ["Fixcast", "FixcastCore"], path: "bench/Sources/fixcast-bench"),
        .testTarget(name: "FixcastCoreTests", dependencies: ["FixcastCore"]),
        .testTarget(name: "FixcastTests", dependencies: ["Fixcast", "FixcastCore"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
