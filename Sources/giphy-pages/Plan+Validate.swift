import ArgumentParser
import GiphyKit
import LadderKit
import SposureKit

extension GiphyPages.Plan {
    /// The options checked together, before anything runs (usage errors, exit 64).
    mutating func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be from 1 to 100.") }
        if let provider {
            guard let chosen = GIFProvider(rawValue: provider) else { throw ValidationError("--provider must be \(GIFProvider.namesText).") }
            if limit > chosen.maxLimit {
                throw ValidationError("--limit must be from 1 to \(chosen.maxLimit) for \(chosen.displayName) (its per_page).")
            }
            if !chosen.api.countsResults && (noPing || total != nil) {
                let counting = GIFProvider.allCases.filter(\.api.countsResults).map(\.displayName).joined(separator: " and ")
                throw ValidationError("--no-ping and --total are \(counting)'s: \(chosen.displayName) is planned without a call.")
            }
        }
        if let maxResults, maxResults < 1 { throw ValidationError("--max-results must be at least 1.") }
        if trending && !allQueries.isEmpty { throw ValidationError("--trending takes no query.") }
        if queriesFrom != nil && (trending || !allQueries.isEmpty) {
            throw ValidationError("--queries-from reads the queries; give no other query and no --trending.")
        }
        if ladder.ladder != nil && (trending || queriesFrom != nil || !allQueries.isEmpty) {
            throw ValidationError("--ladder plans the rung's queries; give no other query, --trending or --queries-from.")
        }
        if ladder.ladder == nil && !trending && queriesFrom == nil && allQueries.isEmpty {
            throw ValidationError("Give a query (giphy-pages plan spiders), --trending, or --queries-from FILE.")
        }
        for query in allQueries where query.trimmingWhitespace().isEmpty {
            throw ValidationError("A query must not be empty.")
        }
        // The API's own limit, also when it is not named but chosen by its key.
        let api = (provider() ?? .recordDefault).api
        for query in allQueries {
            if let longest = api.maxQueryLength, query.count > longest {
                throw ValidationError("\"\(query.prefix(20))…\" is \(query.count) characters; \(api.displayName) takes at most \(longest).")
            }
        }
        guard avoid.count <= AvoidList.maxEntries else {
            throw ValidationError("--avoid: \(avoid.count) words; a page carries at most \(AvoidList.maxEntries).")
        }
        for word in avoid {
            if let problem = AvoidList.problem(word) { throw ValidationError("--avoid: \(problem).") }
        }
        if noPing != (total != nil) { throw ValidationError("--no-ping and --total go together.") }
        if seed != nil && !shuffle { throw ValidationError("--seed goes with --shuffle.") }
        if follow && interval.seconds < 1 { throw ValidationError("--interval must be at least 1s.") }
    }
}
