// swift-tools-version: 6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The daemon's modules: a nonisolated async function runs on its caller's executor (SE-0461), so that a change
/// made inside a layout's actor stays on it instead of leaving it and coming back for every async call of the engine
/// and the visit (several task switches per one-item update). Work meant to run apart runs in tasks of its own.
let server =
    strict + [
        .enableUpcomingFeature("NonisolatedNonsendingByDefault")
    ]

/// The test support and the test targets whose own code is hot: the reference layout, the oracles and the checks run
/// millions of times per test run, and unoptimised they take most of its time. The modules under test keep the
/// build's own settings (debug: unoptimised, with assertions); `WATERFALL_UNOPTIMIZED_TESTS=1` builds the tests
/// unoptimised too, for stepping through them in a debugger. No product contains these targets, so a package that
/// depends on a product is not refused for their flags.
let tests =
    strict
    + (Context.environment["WATERFALL_UNOPTIMIZED_TESTS"] == nil
        ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : [])

let package = Package(
    name: "waterfall",
    products: [
        .executable(name: "waterfalld", targets: ["waterfalld"]),
        .executable(name: "waterfall-bench", targets: ["waterfall-bench"]),
        .executable(name: "waterfallctl", targets: ["waterfallctl"]),
        .library(name: "WaterfallLayout", targets: ["WaterfallLayout"]),
        .library(name: "WaterfallClient", targets: ["WaterfallClient"]),
    ],
    dependencies: [],
    targets: [
        // Handing a value to a child task so that it holds the only copy: the engine's section tasks and the
        // daemon's connection tasks.
        .target(name: "WaterfallConcurrency", swiftSettings: server),
        // The engine's value types (geometry, items, section properties, commands, diffs, errors) and the range
        // checks of their values: standard library only, no layout algorithm. The engine and the client share it.
        .target(name: "WaterfallModel", swiftSettings: server),
        // The kernel's huge pages for the engine's own large arrays: one madvise, which the standard library lacks.
        .target(name: "CHugePages"),
        // The engine: standard library only (and the hand-off to its section tasks, and huge pages for its large
        // arrays); re-exports the model.
        .target(
            name: "WaterfallLayout", dependencies: ["WaterfallModel", "WaterfallConcurrency", "CHugePages"],
            swiftSettings: server),
        // A strict RFC 8259 reader and writer over bytes: standard library only.
        .target(name: "WaterfallJSON", swiftSettings: server),
        // What the client and the daemon both speak: the methods' declarations, params reading and writing, results
        // and their readers, error codes, request envelopes and framing. No engine, no sockets.
        .target(name: "WaterfallWire", dependencies: ["WaterfallModel", "WaterfallJSON"], swiftSettings: server),
        // The daemon's side of the protocol: reply encoding, the stylesheet writer, metrics text; no sockets.
        .target(
            name: "WaterfallProtocol", dependencies: ["WaterfallWire", "WaterfallLayout", "WaterfallJSON"],
            swiftSettings: server),
        // The binary formats of snapshots and journals (CRC-32C, framing, encodings): standard library only.
        .target(name: "WaterfallStorageFormat", dependencies: ["WaterfallLayout"], swiftSettings: server),
        // epoll and eventfd, which Swift's Glibc module lacks: a few C wrappers.
        .target(name: "CEpoll"),
        // Sockets, signals, config, systemd, the layout store and its files: the only Glibc user.
        .target(
            name: "WaterfallServer",
            dependencies: ["WaterfallProtocol", "WaterfallStorageFormat", "WaterfallConcurrency", "CEpoll"],
            swiftSettings: server),
        .executableTarget(name: "waterfalld", dependencies: ["WaterfallServer"], swiftSettings: server),
        // The Swift client: async calls over the socket, subscriptions, a frame model that applies diffs.
        // It depends on the wire module only, so an app that uses it does not link the engine.
        .target(name: "WaterfallClient", dependencies: ["WaterfallWire"], swiftSettings: strict),
        // waterfallctl's commands, output and SVG renderer, testable in-process; the executable is one @main. The SVG
        // of a saved layout is laid out by the engine, and diffs are printed as the daemon writes them.
        .target(
            name: "WaterfallCommandLine", dependencies: ["WaterfallClient", "WaterfallProtocol"], swiftSettings: strict),
        .executableTarget(name: "waterfallctl", dependencies: ["WaterfallCommandLine"], swiftSettings: strict),
        .executableTarget(
            name: "waterfall-bench",
            dependencies: ["WaterfallServer", "WaterfallTestSupport", "WaterfallClient"],
            // The C and C++ programs the daemon is measured against, compiled by the benchmark when it runs.
            exclude: ["Peers"],
            swiftSettings: strict
        ),
        // Shared by tests and the benchmark: the reference layout, a seeded RNG, a socket client, a spawned daemon.
        .target(
            name: "WaterfallTestSupport",
            dependencies: [
                "WaterfallLayout", "WaterfallJSON", "WaterfallWire", "WaterfallProtocol", "WaterfallClient",
            ],
            swiftSettings: tests
        ),
        // The daemon in the test's own process, for the integration tests (apart, so that the unit tests do not see
        // the server's modules).
        .target(
            name: "WaterfallServerTestSupport",
            dependencies: ["WaterfallServer", "WaterfallTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WaterfallLayoutTests",
            dependencies: ["WaterfallLayout", "WaterfallClient", "WaterfallTestSupport"],
            swiftSettings: tests
        ),
        .testTarget(name: "WaterfallJSONTests", dependencies: ["WaterfallJSON"], swiftSettings: tests),
        .testTarget(
            name: "WaterfallStorageFormatTests",
            dependencies: ["WaterfallStorageFormat", "WaterfallTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WaterfallProtocolTests",
            dependencies: ["WaterfallProtocol", "WaterfallTestSupport"],
            swiftSettings: strict
        ),
        // The server's parts without a socket or a process: config, options, connection state, registries.
        .testTarget(
            name: "WaterfallServerUnitTests",
            dependencies: ["WaterfallServer", "WaterfallTestSupport"],
            swiftSettings: strict
        ),
        // The client's decoding and models without a daemon.
        .testTarget(
            name: "WaterfallClientUnitTests",
            dependencies: ["WaterfallClient", "WaterfallTestSupport"],
            swiftSettings: strict
        ),
        // waterfallctl's parsing, output and SVG renderer (its golden files in Golden/), without a daemon.
        .testTarget(
            name: "WaterfallCommandLineTests",
            dependencies: ["WaterfallClient", "WaterfallCommandLine"],
            exclude: ["Golden"],
            swiftSettings: strict
        ),
        // Integration: in-process servers on sockets, spawned daemons, socat, systemd, browsers; timing-sensitive,
        // so run serially.
        .testTarget(
            name: "WaterfallServerTests",
            dependencies: ["WaterfallServer", "WaterfallServerTestSupport", "WaterfallTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WaterfallClientTests",
            dependencies: ["WaterfallClient", "WaterfallServer", "WaterfallServerTestSupport", "WaterfallTestSupport"],
            swiftSettings: strict
        ),
        // waterfallctl against a daemon: its commands in-process, the built executables, completion scripts in their
        // shells, the README's tutorial.
        .testTarget(
            name: "WaterfallCtlTests",
            dependencies: [
                "WaterfallClient", "WaterfallCommandLine", "WaterfallServerTestSupport", "WaterfallTestSupport",
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
