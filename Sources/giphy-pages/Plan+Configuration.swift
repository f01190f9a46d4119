import GiphyKit
import SposureKit

extension GiphyPages.Plan {
    /// What the planner is to do, from the options: `provider`'s pages, of
    /// `ladder`'s rung when there is one.
    func configuration(provider chosen: GIFProvider, ladder: LadderPagePlan?, stage: Stage) -> PlanConfiguration {
        var configuration = PlanConfiguration()
        configuration.provider = chosen
        if chosen == .klipy && limit > chosen.maxLimit {
            stage.diagnostics.note("Klipy serves at most 50 results a page: --limit 50")
        }
        if chosen == .klipy { configuration.limit = min(limit, chosen.maxLimit) }
        configuration.endpoint = trending ? .trending : .search
        if chosen == .giphy { configuration.limit = limit }
        configuration.maxResults = maxResults
        configuration.rating = api.rating
        configuration.lang = api.lang
        configuration.interleave = interleave
        configuration.shuffleSeed = shuffle ? (seed ?? UInt64.random(in: 0...UInt64.max)) : nil
        configuration.fixedTotal = total
        configuration.followInterval = follow ? interval.seconds : nil
        configuration.maxWait = api.maxWait.seconds
        configuration.rate = api.rateLimit
        configuration.dataFolder = api.dataFolder
        configuration.cache = api.cache
        configuration.ladder = ladder
        return configuration
    }
}
