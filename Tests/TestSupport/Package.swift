// swift-tools-version:6.0
// The test targets' helpers (a real HTTP server on 127.0.0.1, the built
// tools over pipes, GIF builders), a package of its own: `swift build` and
// `make build` never compile it, only the test build does (--build-tests).
import PackageDescription

let package = Package(
    name: "TestSupport",
    products: [.library(name: "TestSupport", targets: ["TestSupport"])],
    targets: [.target(name: "TestSupport", path: ".", exclude: ["Package.swift"])]
)
