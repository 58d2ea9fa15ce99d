// swift-tools-version:6.0
// Benchmark programs (run by Scripts/bench.sh), kept out of the root package.
import PackageDescription

let package = Package(
    name: "TesseraBench",
    dependencies: [.package(name: "Tessera", path: "../..")],
    targets: [
        .executableTarget(name: "ParsePlaylists",
                          dependencies: [.product(name: "TesseraPlaylist", package: "Tessera")]),
        .target(name: "BenchDriver"),
        .executableTarget(name: "HTTPClientBench",
                          dependencies: ["BenchDriver", .product(name: "TesseraHTTP", package: "Tessera")]),
        .executableTarget(name: "URLSessionBench", dependencies: ["BenchDriver"]),
        .executableTarget(name: "DecryptBench",
                          dependencies: [.product(name: "TesseraMedia", package: "Tessera")]),
    ]
)
