import ArgumentParser
import GiphyKit
import SposureCLI
import SposureKit

extension GiphyPages {
    /// `giphy-pages list`: the URL lister.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run page requests and write one gif record per result (the URL lister).",
            discussion: """
                Reads "page" records on stdin (from `giphy-pages plan`, or saved) and writes, \
                in page order, one "gif" record per result: {"kind":"gif","id":…,"title":…,\
                "query":…,"section":…,"rank":…,"rendition":"fixed_height","url":…,"width":…,\
                "height":…,"frames":…,"size":…,"cache_key":"giphy:<id>:<rendition>"}. Numbers \
                are numbers, though the API sends them as strings; media URLs are kept exactly \
                (with their ?cid=). A GIF seen before in the run is dropped. Other records pass \
                through unchanged.

                429, 5xx and the API's empty "synthetic" answers are retried with backoff for up \
                to --max-wait; what still fails becomes an error record that keeps the page's \
                fields, so `giphy-pages list --retry-errors < saved.ndjson` runs just the failed \
                pages again. A refused key (401/403) stops the run with one message.

                Examples:
                  giphy-pages plan spiders | giphy-pages list | fetch-images
                  giphy-pages list --rendition downsized < pages.ndjson > gifs.ndjson
                  grep '"code"' gifs.ndjson | giphy-pages list --retry-errors

                \(exitCodes)
                """)

        @Option(help: ArgumentHelp("Page requests at once.", valueName: "n"))
        var concurrency = 2

        @Option(help: ArgumentHelp("The rendition to list (fixed_height is 200 px tall: enough for a terminal). When a GIF lacks it, the next of: \(GIFRecord.fallbacks.joined(separator: ", ")).", valueName: "name"))
        var rendition = "fixed_height"

        @Option(help: ArgumentHelp("The most API calls of the run; pages past it become max_calls error records.", valueName: "n"))
        var maxCalls: Int?

        @Option(help: ArgumentHelp("A client-side rate limit, as calls/period: 100/h (a beta key's allowance), 10/m, 2/s, or 0 for none.", valueName: "rate"))
        var rate = "100/h"

        @Flag(help: "Take back this stage's own error records (saved from an earlier run) and run their pages again.")
        var retryErrors = false

        @Option(help: ArgumentHelp("Time allowed for one request.", valueName: "time"))
        var timeout = TimeSpan(seconds: 30)

        @OptionGroup var api: APIOptions
        @OptionGroup var stream: StreamOptions

        mutating func validate() throws {
            guard (1...16).contains(concurrency) else { throw ValidationError("--concurrency must be from 1 to 16.") }
            if let maxCalls, maxCalls < 0 { throw ValidationError("--max-calls must be 0 or more.") }
            guard Self.parseRate(rate) != nil else { throw ValidationError("--rate must look like 100/h, 10/m, 2/s or 0.") }
            guard !rendition.isEmpty else { throw ValidationError("--rendition must name a rendition.") }
        }

        static func parseRate(_ text: String) -> (calls: Int, period: Double)? {
            if text == "0" { return (0, 1) }
            let parts = text.split(separator: "/")
            guard parts.count == 2, let calls = Int(parts[0]), calls > 0 else { return nil }
            switch parts[1] {
            case "s": return (calls, 1)
            case "m", "min": return (calls, 60)
            case "h": return (calls, 3600)
            default: return nil
            }
        }

        func run() throws {
            var configuration = ListConfiguration()
            configuration.concurrency = concurrency
            configuration.renditions = GIFRecord.chain(for: rendition)
            configuration.maxWait = api.maxWait.seconds
            configuration.maxCalls = maxCalls
            let (calls, period) = Self.parseRate(rate) ?? (0, 1)
            configuration.rateCalls = calls
            configuration.ratePeriod = period
            configuration.retryErrors = retryErrors
            configuration.timeout = timeout.seconds
            configuration.window = max(stream.buffer, concurrency * 4)

            let stage = Stage(name: "giphy-pages list", options: stream.stageOptions)
            let access: GiphyAccess
            do {
                access = try GiphyAccess(apiURL: api.apiURL)
            } catch {
                stage.diagnostics.error(error.description)
                throw ExitCode.failure
            }
            let lister: PageLister
            do {
                lister = try PageLister(stage: stage, access: access, configuration: configuration)
            } catch {
                stage.diagnostics.error("libcurl: \(error)")
                throw ExitCode(2)
            }
            stage.parsedKinds = ["page", "error"]
            stage.start()
            stage.finish(failed: lister.run())
        }
    }
}
