// swift-tools-version:6.0
import PackageDescription

/// The test helpers (Tests/TestSupport/Package.swift).
let testSupport: Target.Dependency = .product(name: "TestSupport", package: "TestSupport")

let package = Package(
    name: "sposure",
    // Linux only (Glibc, /proc, Linux terminal calls): no Apple platform is claimed.
    products: [
        .executable(name: "fetch-images", targets: ["fetch-images"]),
        .executable(name: "gif-play", targets: ["gif-play"]),
        .executable(name: "giphy-pages", targets: ["giphy-pages"]),
        .executable(name: "score", targets: ["score"]),
        .executable(name: "sposure", targets: ["sposure"]),
        .library(name: "SposureKit", targets: ["SposureKit"]),
    ],
    dependencies: [
        // 1.7.0: @ParentCommand (score history reads score's options).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.7.0"),
        // The test helpers: a package of their own, so that only the test build compiles them.
        .package(path: "Tests/TestSupport"),
    ],
    targets: [
        // C libraries, found through pkg-config; `make deps` installs them.
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CGif", pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CJansson", pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // The pictures that are not GIFs (Wikimedia Commons): JPEG, PNG, animated WebP.
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),
        // Typed wrappers for libcurl's variadic calls, which Swift cannot call.
        .target(name: "CurlShim", dependencies: ["CCurl"]),

        // The stream kit and everything two or more tools share (no command
        // line: the kits are used from tests and other programs as they are).
        .target(name: "SposureKit", dependencies: ["CJansson"]),

        // The stream contract: every record kind of docs/stream-format.md as
        // one type with one reader and one writer, just above the stream kit.
        // Stages exchange these types, never field names.
        .target(name: "RecordKit", dependencies: ["SposureKit"]),

        // SHA-256 from OpenSSL's libcrypto, which libcurl loads anyway.
        .target(name: "Hashing", dependencies: ["CCrypto"]),

        // What every command line shares: the stream options and the
        // argument conformances of the kits' value types.
        .target(
            name: "SposureCLI",
            dependencies: [
                "SposureKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The one network engine, HTTP through libcurl: the request engine
        // and its client contract, under both stage kits that go on the
        // network (the lister and the fetcher), so the kits follow the stage
        // order. Only the tools that go on the network link libcurl (and its
        // ~30 libraries, which cost a player or a scorer 20 ms of start-up each run).
        .target(name: "NetKit", dependencies: ["SposureKit", "RecordKit", "CCurl", "CurlShim"]),

        // Stage 3: the concurrent image fetcher and its cache.
        .target(
            name: "FetchKit",
            dependencies: [
                "SposureKit", "RecordKit", "NetKit", "CCurl", "CurlShim", "Hashing",
            ]),

        // Stages 1 and 2: the GIF APIs, page planning, responses, renditions.
        .target(name: "GiphyKit", dependencies: ["SposureKit", "RecordKit", "NetKit", "Hashing", "LadderKit", "HistoryKit"]),

        .executableTarget(
            name: "giphy-pages",
            dependencies: [
                "SposureKit", "SposureCLI", "RecordKit", "NetKit", "GiphyKit", "LadderKit", "HistoryKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The exposure ladder: the ladder files, the built-in ladders, the rules
        // that step a person up and down and schedule re-tests, GIF ratings and
        // the safety notice. `plan`, `list`, `score` and `gif-play` share it.
        // The built-in ladders are ladder files, compiled in as bytes (no
        // bundle to find at run time); docs/ladders.md says how to add one.
        .target(
            name: "LadderKit", dependencies: ["SposureKit"],
            resources: ["spiders", "snakes", "dogs", "insects", "heights", "flying", "needles", "blood", "clowns", "deep-water"]
                .map { .embedInCode("Ladders/\($0).json") }),

        // What the data folder remembers: the history of rounds, where each
        // ladder stands (which rung is next, what is due), GIF ratings and
        // marks, and timestamps. `giphy-pages` (which rung, which GIFs) and
        // `score` (what to keep) share it, so no stage imports a later one's kit.
        .target(name: "HistoryKit", dependencies: ["SposureKit", "RecordKit", "LadderKit"]),

        // The score reporter: round reports, lifetime history, charts.
        .target(name: "ScoreKit", dependencies: ["SposureKit", "RecordKit", "LadderKit", "HistoryKit"]),

        .executableTarget(
            name: "score",
            dependencies: [
                "SposureKit", "SposureCLI", "RecordKit", "ScoreKit", "LadderKit", "HistoryKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The GIF engine: giflib decoding, browser-exact compositing, terminal
        // scaling; JPEG, PNG and WebP through their own libraries, to the same frames.
        .target(
            name: "GIFEngine",
            dependencies: [
                "CGif", "CTurboJPEG", "CPNG", "CWebP", "Hashing",
            ]),

        // The frame player: terminal, input, hold-to-play, renderers.
        .target(name: "PlayerKit", dependencies: ["SposureKit", "RecordKit", "GIFEngine", "LadderKit", "CZlib", "HistoryKit"], exclude: ["README.md"]),

        .executableTarget(
            name: "gif-play",
            dependencies: [
                "SposureKit", "SposureCLI", "RecordKit", "GIFEngine", "PlayerKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .executableTarget(
            name: "fetch-images",
            dependencies: [
                "SposureKit", "SposureCLI", "RecordKit", "NetKit", "FetchKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The front door: where a person stands, the rounds (the five stages
        // wired over pipes, judged by their exit statuses) and the doctor.
        .target(
            name: "FrontDoorKit",
            dependencies: ["SposureKit", "RecordKit", "LadderKit", "HistoryKit", "ScoreKit", "GiphyKit"]),

        .executableTarget(
            name: "sposure",
            dependencies: [
                "SposureKit", "SposureCLI", "FrontDoorKit", "GiphyKit", "ScoreKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "SposureKitTests", dependencies: ["SposureKit", "RecordKit", "SposureCLI", testSupport, "CJansson"]),
        .testTarget(name: "FetchKitTests", dependencies: ["FetchKit", "NetKit", "RecordKit", "SposureKit", testSupport, "GIFEngine"]),
        .testTarget(name: "FetchImagesTests", dependencies: ["SposureKit", "Hashing", testSupport]),
        .testTarget(name: "GiphyKitTests", dependencies: ["GiphyKit", "NetKit", "RecordKit", "SposureKit", "LadderKit", "HistoryKit", testSupport]),
        .testTarget(name: "GiphyPagesTests", dependencies: ["GiphyKit", "NetKit", "SposureKit", testSupport]),
        .testTarget(name: "PipelinesTests", dependencies: [testSupport]),
        .testTarget(name: "LadderKitTests", dependencies: ["LadderKit", "HistoryKit", "RecordKit", "SposureKit"]),
        .testTarget(name: "ScoreKitTests", dependencies: ["ScoreKit", "HistoryKit", "RecordKit", "LadderKit", "SposureKit", testSupport]),
        .testTarget(name: "ScoreTests", dependencies: ["ScoreKit", "HistoryKit", "RecordKit", "LadderKit", "SposureKit", testSupport]),
        .testTarget(name: "PlayerKitTests", dependencies: ["PlayerKit", "RecordKit", "GIFEngine", "LadderKit", "SposureKit", testSupport, "CZlib", "HistoryKit"]),
        .testTarget(name: "GIFPlayTests", dependencies: ["PlayerKit", "RecordKit", "GIFEngine", "SposureKit", "LadderKit", testSupport]),
        .testTarget(name: "HashingTests", dependencies: ["Hashing"]),
        .testTarget(name: "RecordKitTests", dependencies: ["RecordKit", "SposureKit"]),
        .testTarget(name: "FrontDoorKitTests", dependencies: ["FrontDoorKit", "HistoryKit", "RecordKit", "LadderKit", "ScoreKit", "SposureKit", testSupport]),
        .testTarget(name: "SposureTests", dependencies: [testSupport]),
        .testTarget(name: "GoldenTests", dependencies: [testSupport]),
        .testTarget(name: "GIFEngineTests", dependencies: ["GIFEngine", "SposureKit", testSupport]),
        .testTarget(name: "RecordTests", dependencies: ["SposureKit", "RecordKit", "GiphyKit", "HistoryKit", "ScoreKit", "LadderKit", "PlayerKit"]),
    ]
)
