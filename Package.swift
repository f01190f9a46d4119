// swift-tools-version:6.0
import PackageDescription

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
        // Typed wrappers for libcurl's variadic calls, which Swift cannot call.
        .target(name: "CurlShim", dependencies: ["CCurl"]),

        // The stream kit and everything two or more tools share (no command
        // line: the kits are used from tests and other programs as they are).
        .target(name: "SposureKit", dependencies: ["CJansson"]),

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
        .target(name: "NetKit", dependencies: ["SposureKit", "CCurl", "CurlShim"]),

        // Stage 3: the concurrent image fetcher and its cache.
        .target(
            name: "FetchKit",
            dependencies: [
                "SposureKit", "NetKit", "CCurl", "CurlShim", "Hashing",
            ]),

        // Stages 1 and 2: the GIF APIs, page planning, responses, renditions.
        .target(name: "GiphyKit", dependencies: ["SposureKit", "NetKit", "Hashing", "LadderKit", "HistoryKit", "EventKit"]),

        .executableTarget(
            name: "giphy-pages",
            dependencies: [
                "SposureKit", "SposureCLI", "NetKit", "GiphyKit", "LadderKit", "HistoryKit",
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
        .target(name: "HistoryKit", dependencies: ["SposureKit", "LadderKit", "EventKit"]),

        // The player's events, one type each (session, hold, shown, stall,
        // rated, rating): gif-play writes them and score reads them back.
        .target(name: "EventKit", dependencies: ["SposureKit", "LadderKit"]),

        // The score reporter: round reports, lifetime history, charts.
        .target(name: "ScoreKit", dependencies: ["SposureKit", "LadderKit", "HistoryKit", "EventKit"]),

        .executableTarget(
            name: "score",
            dependencies: [
                "SposureKit", "SposureCLI", "ScoreKit", "LadderKit", "HistoryKit", "EventKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The GIF engine: giflib decoding, browser-exact compositing, terminal scaling.
        .target(
            name: "GIFEngine",
            dependencies: [
                "CGif", "Hashing",
            ]),

        // The frame player: terminal, input, hold-to-play, renderers.
        .target(name: "PlayerKit", dependencies: ["SposureKit", "GIFEngine", "LadderKit", "EventKit", "CZlib", "HistoryKit"], exclude: ["README.md"]),

        .executableTarget(
            name: "gif-play",
            dependencies: [
                "SposureKit", "SposureCLI", "GIFEngine", "PlayerKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .executableTarget(
            name: "fetch-images",
            dependencies: [
                "SposureKit", "SposureCLI", "NetKit", "FetchKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // The front door: where a person stands, the rounds (the five stages
        // wired over pipes, judged by their exit statuses) and the doctor.
        .target(
            name: "FrontDoorKit",
            dependencies: ["SposureKit", "LadderKit", "HistoryKit", "ScoreKit", "GiphyKit"]),

        .executableTarget(
            name: "sposure",
            dependencies: [
                "SposureKit", "SposureCLI", "FrontDoorKit", "GiphyKit", "ScoreKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // Shared by the test targets: a real HTTP server on 127.0.0.1 and
        // helpers that run the built executables over pipes.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SposureKitTests", dependencies: ["SposureKit", "SposureCLI", "TestSupport", "CJansson"]),
        .testTarget(name: "FetchKitTests", dependencies: ["FetchKit", "NetKit", "SposureKit", "TestSupport"]),
        .testTarget(name: "FetchImagesTests", dependencies: ["SposureKit", "Hashing", "TestSupport"]),
        .testTarget(name: "GiphyKitTests", dependencies: ["GiphyKit", "NetKit", "SposureKit", "LadderKit", "HistoryKit", "TestSupport"]),
        .testTarget(name: "GiphyPagesTests", dependencies: ["GiphyKit", "NetKit", "SposureKit", "TestSupport"]),
        .testTarget(name: "PipelinesTests", dependencies: ["TestSupport"]),
        .testTarget(name: "LadderKitTests", dependencies: ["LadderKit", "HistoryKit", "EventKit", "SposureKit"]),
        .testTarget(name: "ScoreKitTests", dependencies: ["ScoreKit", "HistoryKit", "EventKit", "LadderKit", "SposureKit", "TestSupport"]),
        .testTarget(name: "ScoreTests", dependencies: ["ScoreKit", "HistoryKit", "LadderKit", "SposureKit", "TestSupport"]),
        .testTarget(name: "PlayerKitTests", dependencies: ["PlayerKit", "EventKit", "GIFEngine", "LadderKit", "SposureKit", "TestSupport", "CZlib", "HistoryKit"]),
        .testTarget(name: "GIFPlayTests", dependencies: ["PlayerKit", "EventKit", "GIFEngine", "SposureKit", "LadderKit", "TestSupport"]),
        .testTarget(name: "HashingTests", dependencies: ["Hashing"]),
        .testTarget(name: "EventKitTests", dependencies: ["EventKit", "LadderKit", "SposureKit"]),
        .testTarget(name: "FrontDoorKitTests", dependencies: ["FrontDoorKit", "HistoryKit", "LadderKit", "ScoreKit", "SposureKit", "TestSupport"]),
        .testTarget(name: "SposureTests", dependencies: ["TestSupport"]),
        .testTarget(name: "GoldenTests", dependencies: ["TestSupport"]),
        .testTarget(name: "GIFEngineTests", dependencies: ["GIFEngine", "SposureKit", "TestSupport"]),
        .testTarget(name: "RecordTests", dependencies: ["SposureKit", "GiphyKit", "EventKit", "HistoryKit", "ScoreKit", "LadderKit", "PlayerKit"]),
    ]
)
