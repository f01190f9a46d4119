import ArgumentParser
import FetchKit
import SposureCLI
import SposureKit
import NetKit

/// `fetch-images`: the concurrent image fetcher, the third stage of the game.
@main
struct FetchImages: SposureTool {
    static let configuration = CommandConfiguration.tool("fetch-images",
        abstract: "Fetch the pictures (GIF, JPEG, PNG, WebP) named by a stream of records into a local cache.",
        discussion: """
            Reads NDJSON records on stdin (from `giphy-pages list`, a saved stream, or \
            anything you write). Each record of kind "gif" is fetched from its "url" and \
            written back as kind "image" with the cached file's "path", "bytes", "sha256", \
            "cached", "http_status" and "ms". Every other record passes through unchanged. \
            One line comes out for every line that goes in, in input order (--unordered: \
            as transfers finish); a record that cannot be fetched becomes an "error" \
            record with a stable "code" (http_404, rate_limited, timeout, connect, dns, \
            tls, too_large, not_gif, wrong_type, not_allowed, bad_url, too_many_redirects, \
            truncated, interrupted, cache_write, transfer) and the run goes on.

            A body is kept when its first bytes are a GIF, JPEG, PNG or WebP signature (the \
            formats gif-play decodes); any other is not_gif. A record with a "mime" field \
            (image/gif, image/jpeg, image/png, image/webp) whose body's signature is another \
            type is wrong_type, not retried (the body stays cached; the cache file's name \
            ends .gif whatever the format: readers go by the bytes).

            The cache is $SPOSURE_CACHE, else $XDG_CACHE_HOME/sposure, else \
            ~/.cache/sposure. Files are named by the SHA-256 of the record's "cache_key" \
            (else its URL), written under a temporary name and renamed when complete and \
            checked, so a stopped run leaves no half file and a rerun fetches only what \
            is missing. A URL that failed for good (an HTTP 4xx but 408 and 429, a body \
            that is not a picture) is remembered in the cache for a day, its status and not its \
            body, and not fetched again: its record becomes the same error, with \
            "remembered" (when it failed); --retry-failed fetches it again. Only http and \
            https are fetched, with TLS verified and at most 5 redirects; file:// needs \
            --allow-file.

            Into a pipe, records are written one at a time, each once the next stage has \
            read the one before, and at most --ahead records (6) are fetched or in flight \
            past what it has read: a short round fetches only a few GIFs past the last one \
            shown.

            Examples:
              giphy-pages list < pages.ndjson | fetch-images > images.ndjson
              fetch-images --concurrency 16 --cache /tmp/gifs < saved.ndjson

            Exit status:
              0    every record written, none failed
              1    some records became error records (the stream still completed)
              2    stopped by a fatal error (--strict bad line, unusable cache, I/O error)
              64   usage error
              130  interrupted (SIGINT), 143 terminated (SIGTERM)
            A closed stdout (`| head`) is a normal end: exit 0, nothing on stderr.
            """)

    @Option(help: ArgumentHelp("Transfers at once.", valueName: "n"))
    var concurrency = 8

    @Option(help: ArgumentHelp("Transfers at once to one host (default: --concurrency).", valueName: "n"))
    var perHost: Int?

    @Option(help: ArgumentHelp("The cache folder (default: $SPOSURE_CACHE, else $XDG_CACHE_HOME/sposure, else ~/.cache/sposure).", valueName: "dir"))
    var cache: String?

    @Flag(help: "Fetch again even what is cached.")
    var refresh = false

    @Option(help: ArgumentHelp("The largest GIF accepted; a transfer stops as soon as it is passed (e.g. 500KB, 20MB).", valueName: "size"))
    var maxBytes = ByteCount(20_000_000)

    @Option(help: ArgumentHelp("Time allowed to connect (e.g. 500ms, 10s).", valueName: "time"))
    var connectTimeout = TimeSpan(seconds: 10)

    @Option(help: ArgumentHelp("A transfer slower than --low-speed-limit for this long times out (whole seconds).", valueName: "time"))
    var lowSpeedTime = TimeSpan(seconds: 30)

    @Option(help: ArgumentHelp("Bytes per second under which a transfer counts as stalled.", valueName: "n"))
    var lowSpeedLimit = 1000

    @Option(help: ArgumentHelp("Retries of transient failures (5xx, 429, resets, timeouts, cut bodies); 4xx are never retried.", valueName: "n"))
    var retries = 3

    @Option(help: ArgumentHelp("The most one record may take from its first attempt, retries included (0: no limit). A stalled server's record becomes a timeout error then, and the records after it go on.", valueName: "time"))
    var maxTime = TimeSpan(seconds: 20)

    @Option(help: ArgumentHelp("The first retry's delay; each later one doubles, with jitter. A Retry-After header wins.", valueName: "time"))
    var retryDelay = TimeSpan(seconds: 0.5)

    @Option(help: ArgumentHelp("When stdout is a pipe: at most n records fetched or in flight that the next stage has not read yet; each is written once the one before it was read (0: no bound, only --buffer).", valueName: "n"))
    var ahead = 6

    @Flag(help: "Fetch again the URLs whose failure (an HTTP 4xx, a body that is not a GIF) the cache remembers; otherwise such a URL is not fetched again for a day.")
    var retryFailed = false

    @Flag(help: "Allow file:// URLs (off: a URL from remote data never reads a local file).")
    var allowFile = false

    @Flag(help: "--ordered (default): records come out in input order, with a bounded reorder buffer; --unordered: as transfers finish.")
    var order = Order.ordered

    @Option(help: ArgumentHelp("HTTP version: auto (HTTP/2 over TLS when offered), 1.1, or 2.", valueName: "version"))
    var http = HTTPVersion.auto

    @OptionGroup
    var stream: StreamOptions

    mutating func validate() throws {
        guard (1...1024).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 1024.") }
        if let perHost, perHost < 1 { throw ValidationError("--per-host must be at least 1.") }
        guard retries >= 0 else { throw ValidationError("--retries must be 0 or more.") }
        guard ahead >= 0 else { throw ValidationError("--ahead must be 0 or more.") }
        guard maxBytes.bytes >= 6 else { throw ValidationError("--max-bytes must be at least 6 (a GIF signature).") }
        guard lowSpeedLimit >= 0 else { throw ValidationError("--low-speed-limit must be 0 or more.") }
    }

    func run() throws {
        // Named in every request (Wikimedia's media servers ask it of every client too).
        UserAgent.identify(program: "sposure-fetch-images", version: SposureVersion.text, contact: SposureVersion.contact)
        var configuration = FetchConfiguration()
        configuration.concurrency = concurrency
        configuration.perHost = min(perHost ?? concurrency, concurrency)
        configuration.maxBytes = maxBytes.bytes
        configuration.connectTimeout = connectTimeout.seconds
        configuration.lowSpeedTime = lowSpeedTime.seconds
        configuration.lowSpeedLimit = lowSpeedLimit
        configuration.retries = retries
        configuration.backoff = Backoff(base: retryDelay.seconds)
        configuration.maxTime = maxTime.seconds > 0 ? maxTime.seconds : nil
        configuration.allowFile = allowFile
        configuration.ordered = order == .ordered
        configuration.refresh = refresh
        configuration.httpVersion = http
        configuration.window = max(stream.buffer, concurrency * 4)
        configuration.ahead = ahead > 0 ? ahead : nil
        configuration.retryFailed = retryFailed

        let stage = Stage(name: "fetch-images", options: stream.stageOptions)
        let imageCache = try stage.required("cache", exit: ExitCode(2)) { try ImageCache(root: cache ?? ImageCache.defaultRoot()) }
        let fetcher = try stage.required("libcurl", exit: ExitCode(2)) {
            try ImageFetcher(stage: stage, cache: imageCache, configuration: configuration)
        }
        stage.parsedKinds = ["gif"]
        stage.start()
        let failed = fetcher.run()
        stage.finish(failed: failed)
    }
}

/// The order records come out in.
enum Order: String, EnumerableFlag {
    case ordered, unordered
}

/// `--http auto|1.1|2`.
extension HTTPVersion: ExpressibleByArgument {}
