import LadderKit
import SposureKit

extension LadderList {
    /// Where a person stands on one ladder, for the list: its table (nil:
    /// the ladder file could not be read, and why).
    public struct Standing: Sendable {
        /// The ladder's name.
        public var name: String
        /// The ladder read with its rounds, or why it could not be.
        public var table: Result<LadderTable, LadderError>
        /// The person's own copy, when there is one.
        public var copy: String?

        /// The standing on `name`.
        public init(name: String, table: Result<LadderTable, LadderError>, copy: String?) {
            self.name = name
            self.table = table
            self.copy = copy
        }
    }

    /// The ladders as `score ladder` (and `sposure ladder`) without a name
    /// shows them on a terminal: one line a ladder with where you stand on
    /// it (issue 29 #9: a bare list of names), and how to see one.
    ///
    /// ```
    /// spiders     rung 2 of 8, 3 rounds; next round: rung 2
    /// snakes      not started (10 rungs): sposure play --ladder snakes
    /// ```
    public static func standingLines(_ standings: [Standing]) -> [String] {
        let width = min(24, (standings.map { RemoteText.clean($0.name, limit: 40).count }.max() ?? 0)) + 2
        var out: [String] = []
        for standing in standings {
            let name = RemoteText.clean(standing.name, limit: 40)
            var text: String
            switch standing.table {
            case .failure(let error):
                text = "cannot be read: " + RemoteText.visible(error.description)
            case .success(let table):
                let rounds = table.rows.reduce(0) { $0 + $1.rounds }
                let rungs = table.rows.count
                if rounds == 0 {
                    text = "not started (\(rungs) rungs): sposure play --ladder \(name)"
                } else if table.progress.complete {
                    text = "climbed, all \(rungs) rungs; \(rounds) round\(rounds == 1 ? "" : "s")"
                } else {
                    text = "rung \(table.progress.rung) of \(rungs), \(rounds) round\(rounds == 1 ? "" : "s")"
                }
                if rounds > 0 {
                    text += "; next round: rung \(table.next.rung)" + (table.next.retest ? " (a re-test)" : "")
                }
            }
            if let copy = standing.copy { text += "  (your copy: \(RemoteText.visible(copy)))" }
            out.append(name + String(repeating: " ", count: max(2, width - name.count)) + text)
        }
        out.append("")
        out.append("sposure ladder NAME (score ladder NAME) shows a ladder's rungs and your rounds on each.")
        return out
    }
}
