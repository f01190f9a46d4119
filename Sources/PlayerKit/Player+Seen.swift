import HistoryKit
import LadderKit
import SposureKit

extension Player {
    /// The GIFs shown in the last ``PlayerConfiguration/effectiveSeenRounds``
    /// rounds on the rung (or, off a ladder, the query) of the round's
    /// first record, from `<data>/seen.ndjson` (written by `score`); nil
    /// when none is to be read. A file that cannot be read is said on
    /// stderr, and every GIF counts as new.
    func recentGIFs(for record: JSONRecord) -> RecentGIFs? {
        let rounds = configuration.effectiveSeenRounds
        guard rounds > 0 else { return nil }
        let tag = LadderTag(record: record)
        let diagnostics = stage.diagnostics
        let file = SeenFile(path: (configuration.dataFolder.map(DataStore.init(root:)) ?? DataStore()).seen, warn: { diagnostics.warning($0) })
        do {
            return RecentGIFs(try file.recent(query: record.string("query"), ladder: tag?.ladder, rung: tag?.rung, rounds: rounds))
        } catch {
            stage.diagnostics.warning("\(error): GIFs shown in earlier rounds are not played last this time")
            return nil
        }
    }
}
