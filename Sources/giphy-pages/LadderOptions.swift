import ArgumentParser
import FoundationEssentials
import Glibc
import GiphyKit
import LadderKit
import ScoreKit
import SposureKit

/// `giphy-pages plan`'s ladder options, and the rung they choose.
struct LadderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Plan a rung of this fear ladder (spiders, snakes, dogs, …, or your own): its queries, tagged with the ladder and rung.", valueName: "name"))
    var ladder: String?

    @Option(help: ArgumentHelp("With --ladder: this rung (from 1), whatever the history says.", valueName: "n"))
    var rung: Int?

    @Flag(help: "With --ladder: weave in pages of rungs already mastered, about one in four (variability).")
    var mix = false

    @Option(help: ArgumentHelp("With --ladder: the time the rules see (re-tests due), as 2026-11-21T10:00:00Z (default: now).", valueName: "time"))
    var now: String?

    func validate() throws {
        if ladder == nil && (rung != nil || mix || now != nil) {
            throw ValidationError("--rung, --mix and --now go with --ladder.")
        }
        if let rung, rung < 1 { throw ValidationError("--rung must be at least 1.") }
        if let now, Timestamp.normalize(now) == nil {
            throw ValidationError("--now \(now): give a date and time such as 2026-11-21T10:00:00Z.")
        }
    }

    /// The rung to plan, nil without `--ladder`: `--rung`, else the history's
    /// by the ladder's rules. A rung of the person's own GIFs is written here,
    /// and the stage ends (nothing more to plan).
    func plan(stage: Stage) throws -> LadderPagePlan? {
        guard let name = ladder else { return nil }
        let found: Ladder
        do {
            found = try LadderLibrary().load(name).ladder
        } catch {
            stage.diagnostics.error(error.description)
            throw ExitCode(64)
        }
        let history = HistoryFile.named(nil)
        var played = LadderHistory()
        do {
            played = try LadderHistory(file: history, ladders: [found.name])
        } catch {
            stage.diagnostics.warning("\(error); planning as if no round was played")
        }
        let progress = LadderStanding.progress(found, rounds: played.rounds(of: found.name))
        let moment = now.flatMap(Timestamp.date) ?? Date()
        let pick = rung.map { LadderProgress.Pick(rung: $0, retest: false, why: "--rung") }
            ?? progress.next(now: moment, rules: found.rules)
        guard let chosen = found.rung(pick.rung) else {
            stage.diagnostics.error("--rung \(pick.rung): the ladder \(found.name) has \(found.rungs.count) rungs")
            throw ExitCode(64)
        }
        stage.diagnostics.note("\(found.name): rung \(pick.rung) of \(found.rungs.count) (\(chosen.label), SUDS \(chosen.suds))\(pick.retest ? ", a re-test" : ""): \(pick.why)")
        if chosen.dir != nil {
            if mix { stage.diagnostics.note("--mix: a rung of your own GIFs is played alone") }
            let images: [JSONRecord]
            do {
                images = try LadderPagePlan.folderImages(ladder: found, rung: pick.rung, retest: pick.retest)
            } catch {
                stage.diagnostics.error(error.description)
                throw ExitCode.failure
            }
            stage.start(reading: false)
            for image in images where !stage.output.push(image.serialized()) { break }
            stage.finish(failed: false)
        }
        return LadderPagePlan(ladder: found, rung: pick.rung, retest: pick.retest, mix: mix,
                              mastered: Array(progress.masteredOn.keys))
    }
}
