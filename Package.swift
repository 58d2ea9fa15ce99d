// swift-tools-version:6.0
// Tessera: an HLS media-processing engine with a libcurl HTTP client underneath.
// Module map and dependency direction: docs/ARCHITECTURE.md.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The HTTP client's async functions run on their caller's executor until they suspend
/// (`nonisolated(nonsending)`, SE-0461) instead of hopping to the global one at each call: a small
/// GET made 43 executor switches, each taking the task's status lock, and makes 13 (docs/HTTP.md).
let nonsending: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TesseraSupport", targets: ["TesseraSupport"]),
        .library(name: "TesseraHTTP", targets: ["TesseraHTTP"]),
        .library(name: "TesseraHTTPTesting", targets: ["TesseraHTTPTesting"]),
        .library(name: "TesseraPlaylist", targets: ["TesseraPlaylist"]),
        .library(name: "TesseraMedia", targets: ["TesseraMedia"]),
        .library(name: "TesseraHLS", targets: ["TesseraHLS"]),
        .library(name: "TesseraLive", targets: ["TesseraLive"]),
        .library(name: "TesseraPlayback", targets: ["TesseraPlayback"]),
        .executable(name: "tessera", targets: ["tessera"]),
    ],
    targets: [
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),

        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),

        .target(name: "TesseraSupport", dependencies: ["CCrypto", "CSystem"], swiftSettings: strict),
        .target(name: "TesseraHTTP", dependencies: ["CCurl", "TesseraSupport"], swiftSettings: strict + nonsending),
        .target(name: "TesseraHTTPTesting", dependencies: ["TesseraHTTP", "TesseraSupport"], swiftSettings: strict),
        .target(name: "TesseraPlaylist", dependencies: ["TesseraSupport"], swiftSettings: strict),
        .target(name: "TesseraMedia", dependencies: ["TesseraSupport", "CCrypto"], swiftSettings: strict),
        .target(name: "TesseraHLS", dependencies: ["TesseraSupport", "TesseraHTTP", "TesseraPlaylist", "TesseraMedia"],
                swiftSettings: strict),
        .target(name: "TesseraLive", dependencies: ["TesseraPlaylist", "TesseraSupport", "TesseraHLS", "TesseraHTTP"],
                swiftSettings: strict),
        .target(name: "TesseraPlayback", dependencies: ["TesseraSupport", "TesseraHLS", "CMicroHTTPD"], swiftSettings: strict),
        .executableTarget(name: "tessera",
                          dependencies: ["TesseraSupport", "TesseraHTTP", "TesseraPlaylist", "TesseraMedia", "TesseraHLS",
                                         "TesseraPlayback", "TesseraLive"],
                          swiftSettings: strict),

        .target(name: "TesseraTestSupport",
                dependencies: ["TesseraSupport", "TesseraHTTP", "TesseraPlayback", "TesseraMedia", "TesseraHLS", "CCrypto"],
                path: "Tests/TesseraTestSupport", swiftSettings: strict),
        // The LL-HLS test origin in real time for scripts, the demo and the benchmark (not part of `tessera`).
        .executableTarget(name: "tessera-live-origin", dependencies: ["TesseraTestSupport", "TesseraPlayback", "TesseraSupport"],
                          path: "Tests/LiveOriginServer", swiftSettings: strict),
        // The recorder's memory soak for the benchmark: origin and recorder on one scaled clock.
        .executableTarget(name: "tessera-record-soak",
                          dependencies: ["TesseraTestSupport", "TesseraPlayback", "TesseraSupport", "TesseraLive", "TesseraHLS", "TesseraHTTP"],
                          path: "Tests/RecordSoak", swiftSettings: strict),
        // AWS Signature V4 throughput for the benchmark (beside botocore's).
        .executableTarget(name: "tessera-sign-bench", dependencies: ["TesseraHTTP"], path: "Tests/SignBench", swiftSettings: strict),
        .executableTarget(name: "tessera-ws-bench", dependencies: ["TesseraHTTP", "TesseraTestSupport"], path: "Tests/WebSocketBench", swiftSettings: strict),
        // The in-process quality gates (scaling, mutations) and the parse benchmark's playlist writer.
        .executableTarget(name: "tessera-gates",
                          dependencies: ["TesseraSupport", "TesseraPlaylist", "TesseraMedia", "TesseraHLS", "TesseraLive", "TesseraHTTPTesting"],
                          path: "Tests/GateRunner", swiftSettings: strict),
        .testTarget(name: "TesseraSupportTests", dependencies: ["TesseraSupport", "TesseraTestSupport"], swiftSettings: strict),
        .testTarget(name: "TesseraHTTPTests", dependencies: ["TesseraSupport", "TesseraHTTP", "TesseraHTTPTesting", "TesseraTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TesseraHTTPTestingTests", dependencies: ["TesseraHTTP", "TesseraHTTPTesting", "TesseraTestSupport"], swiftSettings: strict),
        .testTarget(name: "TesseraPlaylistTests", dependencies: ["TesseraPlaylist", "TesseraTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TesseraMediaTests", dependencies: ["TesseraSupport", "TesseraMedia", "TesseraTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "TesseraHLSTests",
                    dependencies: ["TesseraSupport", "TesseraHLS", "TesseraHTTP", "TesseraHTTPTesting", "TesseraTestSupport", "TesseraMedia",
                                   "TesseraPlaylist", "TesseraPlayback"],
                    swiftSettings: strict),
        .testTarget(name: "TesseraLiveTests", dependencies: ["TesseraLive", "TesseraPlaylist", "TesseraTestSupport", "TesseraHLS", "TesseraHTTP",
                                                            "TesseraHTTPTesting", "TesseraSupport", "TesseraPlayback"], swiftSettings: strict),
        .testTarget(name: "tesseraTests", dependencies: ["tessera", "TesseraPlaylist", "TesseraTestSupport", "TesseraHLS", "TesseraHTTP", "TesseraLive", "TesseraPlayback"],
                    swiftSettings: strict),
        .testTarget(name: "TesseraPlaybackTests",
                    dependencies: ["TesseraPlayback", "TesseraTestSupport", "TesseraHTTP", "TesseraHLS", "TesseraSupport"], swiftSettings: strict),
    ]
)
