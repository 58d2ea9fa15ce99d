// swift-tools-version:6.0
// libFuzzer targets for Tessera's parsers. Kept out of the root package: they only link with
// `swift build --sanitize=fuzzer` (see QualityGates/fuzz.sh).
import PackageDescription

let package = Package(
    name: "TesseraFuzz",
    dependencies: [.package(name: "Tessera", path: "../..")],
    targets: [
        .executableTarget(name: "FuzzPlaylistParser",
                          dependencies: [.product(name: "TesseraPlaylist", package: "Tessera")]),
        .executableTarget(name: "FuzzTransportStream",
                          dependencies: [.product(name: "TesseraMedia", package: "Tessera")]),
        .executableTarget(name: "FuzzContentRange",
                          dependencies: [.product(name: "TesseraHTTP", package: "Tessera")]),
        .executableTarget(name: "FuzzEventStreams",
                          dependencies: [.product(name: "TesseraHTTP", package: "Tessera")]),
        .executableTarget(name: "FuzzMovieMux",
                          dependencies: [.product(name: "TesseraMedia", package: "Tessera")]),
        .executableTarget(name: "FuzzMP4Validator",
                          dependencies: [.product(name: "TesseraMedia", package: "Tessera")]),
        .executableTarget(name: "FuzzWebSocket",
                          dependencies: [.product(name: "TesseraHTTP", package: "Tessera")]),
        .executableTarget(name: "FuzzHeaderValues",
                          dependencies: [.product(name: "TesseraHTTP", package: "Tessera")]),
        .executableTarget(name: "FuzzChannelList",
                          dependencies: [.product(name: "TesseraHLS", package: "Tessera"), .product(name: "TesseraLive", package: "Tessera")]),
        .executableTarget(name: "FuzzPackage",
                          dependencies: [.product(name: "TesseraHLS", package: "Tessera")]),
        .executableTarget(name: "FuzzPresentation",
                          dependencies: [.product(name: "TesseraHLS", package: "Tessera"), .product(name: "TesseraPlaylist", package: "Tessera")]),
    ]
)
