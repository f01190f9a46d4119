import ArgumentParser
import GiphyKit
import LadderKit
import SposureKit

extension GiphyPages.Plan {
    /// What the planner is to do, from the options: `provider`'s pages, of
    /// `ladder`'s rung when there is one.
    func configuration(provider chosen: GIFProvider, ladder: LadderPagePlan?, stage: Stage) -> PlanConfiguration {
        var configuration = PlanConfiguration()
        configuration.provider = chosen
        if limit > chosen.maxLimit {
            stage.diagnostics.note("\(chosen.displayName) serves at most \(chosen.maxLimit) results a page: --limit \(chosen.maxLimit)")
        }
        configuration.limit = min(limit, chosen.maxLimit)
        configuration.endpoint = trending ? .trending : .search
        configuration.maxResults = maxResults
        configuration.rating = api.rating
        configuration.lang = api.lang
        configuration.interleave = interleave
        configuration.shuffleSeed = shuffle ? (seed ?? UInt64.random(in: 0...UInt64.max)) : nil
        configuration.fixedTotal = total
        configuration.followInterval = follow ? interval.seconds : nil
        configuration.maxWait = api.maxWait.seconds
        configuration.maxTime = api.maxTimeLimit
        configuration.rate = api.rateLimit
        configuration.dataFolder = api.dataFolder
        configuration.cache = api.cache
        configuration.ladder = ladder
        configuration.avoid = AvoidList(avoid)
        return configuration
    }

    /// One limit for what a page carries: the ladder's and the rung's words
    /// with --avoid's, said as a usage error (exit 64) in plan's own words.
    func checkAvoidWords(with ladderPlan: LadderPagePlan?, stage: Stage) throws {
        for list in ladderPlan?.avoid.values.map({ $0 }) ?? [] {
            let together = list.merged(with: AvoidList(avoid)).entries.count
            if together > AvoidList.maxEntries {
                stage.diagnostics.error("--avoid: \(together) words with the ladder's own; a page carries at most \(AvoidList.maxEntries)")
                throw ExitCode(64)
            }
        }
    }
}
