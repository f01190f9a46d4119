import ArgumentParser
import FoundationEssentials
import Glibc
import GiphyKit
import LadderKit
import SposureCLI
import HistoryKit
import SposureKit

/// `giphy-pages plan`'s ladder options, and the rung they choose.
struct LadderOptions: ParsableArguments {
    @OptionGroup var selection: LadderChoice

    @Option(help: ArgumentHelp("With --ladder: the time the rules see (re-tests due), as 2026-11-21T10:00:00Z (default: now).", valueName: "time"))
    var now: String?

    /// The ladder to plan (`--ladder`).
    var ladder: String? { selection.ladder }

    func validate() throws {
        if ladder == nil && (selection.rung != nil || selection.mix || now != nil) {
            throw ValidationError("--rung, --mix and --now go with --ladder.")
        }
        if let now, Timestamp.normalize(now) == nil {
            throw ValidationError("--now \(now): give a date and time such as 2026-11-21T10:00:00Z.")
        }
    }

    /// The rung to plan, nil without `--ladder`: ``RungChoice`` chooses it.
    /// A rung of the person's own GIFs is written here, and the stage ends
    /// (nothing more to plan).
    func plan(stage: Stage, provider: String? = nil) throws -> LadderPagePlan? {
        guard let name = ladder else { return nil }
        let choice = try stage.required(exit: ExitCode(64)) {
            try RungChoice.choose(ladder: name, rung: selection.rung, now: now.flatMap(Timestamp.date) ?? Date())
        }
        for warning in choice.warnings { stage.diagnostics.warning(warning) }
        stage.diagnostics.note(choice.summary)
        if choice.rung.dir != nil {
            if selection.mix { stage.diagnostics.note("--mix: a rung of your own GIFs is played alone") }
            // A rung's folder is part of the ladder file: its problem is the file's, exit 64 as any.
            let images = try stage.required(exit: ExitCode(64)) {
                try LadderPagePlan.folderImages(ladder: choice.ladder, rung: choice.pick.rung, retest: choice.pick.retest,
                                                file: choice.file, skipped: { stage.diagnostics.warning($0) })
            }
            stage.start(reading: false)
            for image in images where !stage.output.push(image.serialized()) { break }
            stage.finish(failed: false)
        }
        return LadderPagePlan(ladder: choice.ladder, rung: choice.pick.rung, retest: choice.pick.retest, mix: selection.mix,
                              mastered: choice.mastered, provider: provider)
    }
}
