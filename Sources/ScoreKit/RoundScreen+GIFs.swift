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
