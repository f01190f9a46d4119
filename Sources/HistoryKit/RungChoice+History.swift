import FoundationEssentials
import LadderKit

extension RungChoice {
    /// The rung of the ladder `name` to play at `now`: `rung` when given,
    /// else the rules' pick over its rounds in `history` (a history that
    /// cannot be read is said in `warnings`, and planned as if empty).
    public static func choose(ladder name: String, rung: Int? = nil, now: Date = Date(),
                              library: LadderLibrary = LadderLibrary(),
                              history: HistoryFile = .named(nil)) throws(Failure) -> RungChoice {
        let loaded: (ladder: Ladder, source: LadderLibrary.Source)
        do {
            loaded = try library.load(name)
        } catch {
            throw Failure(description: error.description)
        }
        var file: String?
        if case .file(let path) = loaded.source { file = path }
        var warnings: [String] = []
        var played = LadderHistory()
        do {
            played = try LadderHistory(file: history, ladders: [loaded.ladder.name])
        } catch {
            warnings.append("\(error); planning as if no round was played")
        }
        return try choose(loaded.ladder, file: file, rounds: played.rounds(of: loaded.ladder.name), rung: rung, now: now,
                          warnings: warnings)
    }
}
