import Glibc
import HistoryKit
import LadderKit
import RecordKit
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
            return RecentGIFs(try file.recent(query: record.string(GIFRecord.Field.query), ladder: tag?.ladder, rung: tag?.rung, rounds: rounds))
        } catch {
            stage.diagnostics.warning("\(error): GIFs shown in earlier rounds are not played last this time")
            return nil
        }
    }
}

extension Player {
    /// The clips marked off-topic (the x key, kept by `score` in
    /// `<data>/ratings.ndjson`) whose marks carry their perceptual hash: a
    /// re-upload of one under another id is passed over, since `list` knows
    /// ids only. A file that cannot be read is said on stderr, and no GIF
    /// is passed over for a mark. Read only when the GIFs seen in earlier
    /// rounds are (``PlayerConfiguration/effectiveSeenRounds``: a real clock,
    /// or `--seen-rounds N`): a replay on a virtual clock plays its stream as
    /// it was, whatever was marked since.
    func offTopicClips() -> [(id: String, hash: FirstFrameHash)] {
        guard configuration.effectiveSeenRounds > 0 else { return [] }
        let path = (configuration.dataFolder.map(DataStore.init(root:)) ?? DataStore()).ratings
        guard access(path, F_OK) == 0 else { return [] }
        do {
            return try GIFRatingFile(path: path).marks().compactMap { mark in
                FirstFrameHash(hash: mark.hash, hashDCT: mark.hashDCT).map { (mark.id, $0) }
            }
        } catch {
            stage.diagnostics.warning("\(error): re-uploads of GIFs marked off-topic are not passed over this time")
            return []
        }
    }
}
