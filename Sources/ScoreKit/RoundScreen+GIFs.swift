import SposureKit

extension RoundScreen {
    /// The rows under "GIFs" about which GIFs the round showed: how many
    /// were new, the same clips passed over, the ones marked off-topic.
    /// Each only when there is something to say.
    ///
    /// ```
    ///   New           7 of 9 GIFs new (not in the last 5 rounds of this rung)
    ///   Skipped       2, the same clip again under another id
    ///   Off-topic     1 marked with x: kept for `score ladder`
    /// ```
    static func gifRows(_ scored: ScoredRound) -> [(label: String, value: String)] {
        let round = scored.round
        var rows: [(label: String, value: String)] = []
        if let new = scored.newGIFs, round.gifsShown > 0 {
            let of = round.ladder == nil ? "query" : "rung"
            rows.append(("New", "\(new) of \(round.gifsShown) GIF\(round.gifsShown == 1 ? "" : "s") new "
                + "(not in the last \(ScoredRound.recentRounds) rounds of this \(of))"))
        }
        if round.gifsSkipped > 0 {
            rows.append(("Skipped", "\(round.gifsSkipped), the same clip again under another id"))
        }
        if scored.gifsOffTopic > 0 {
            rows.append(("Off-topic", "\(scored.gifsOffTopic) marked with x" + (scored.newGIFs == nil ? "" : ": kept for `score ladder`")))
        }
        return rows
    }
}

extension RoundScreen {
    /// The rows of a round whose GIFs ran out while the button was held
    /// (issue 29 #8): it was not a letting go, and where more GIFs come from.
    ///
    /// ```
    ///   Ended         the GIFs ran out while you held on: it was not you letting go
    ///   More GIFs     widen the rung: score ladder spiders --copy, then add queries to it
    ///                 or mix in rungs you climbed: sposure play --ladder spiders --mix
    ///                 or ask the other provider: sposure play --ladder spiders --provider klipy
    /// ```
    static func ranOutRows(_ scored: ScoredRound) -> [(label: String, value: String)] {
        let round = scored.round
        guard round.ranOut else { return [] }
        var rows: [(label: String, value: String)] = [("Ended", "the GIFs ran out while you held on: it was not you letting go")]
        let other: String? = switch round.provider {
        case "giphy": "klipy"
        case "klipy": "giphy"
        default: nil
        }
        var ways: [String] = []
        let play: String
        if let tag = round.ladder {
            let name = RemoteText.clean(tag.ladder, limit: 40)
            play = "sposure play --ladder \(name)"
            ways.append("widen the rung: score ladder \(name) --copy, then add queries to it")
            ways.append("mix in rungs you climbed: \(play) --mix")
        } else {
            play = "sposure play"
            ways.append("search wider: fewer or more common words, or more queries")
        }
        if let other { ways.append("ask the other provider: \(play) --provider \(other)") }
        for (index, way) in ways.enumerated() {
            rows.append((index == 0 ? "More GIFs" : "", index == 0 ? way : "or " + way))
        }
        return rows
    }
}
