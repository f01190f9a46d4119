import Foundation
import SposureKit

/// `score history`: reads the history and writes its statistics, and the chart.
public enum LifetimeReporter {
    /// Writes the report to `stage`'s output and returns the exit status:
    /// 0, or 2 when the history cannot be read or the chart cannot be written.
    public static func run(stage: Stage, configuration: LifetimeConfiguration) -> Int32 {
        let contents: HistoryFile.Contents
        do {
            contents = try configuration.history.read()
        } catch {
            stage.diagnostics.error("\(error)")
            stage.requestStop(.fatal)
            return stage.drain(failed: true)
        }
        for problem in contents.problems { stage.diagnostics.warning(problem) }
        var entries = contents.entries
        if let last = configuration.last { entries = Array(entries.suffix(last)) }
        let stats = LifetimeStats(entries: entries)
        if configuration.exportCSV {
            stage.output.push(Array(HistoryCSV.text(entries).dropLast().utf8))
            return stage.drain(failed: false)
        }
        // Practice (today, streak, week, rungs, expectancy) joins the report
        // once there are ladder rounds, or when --now asks for it.
        let practice = configuration.now != nil || entries.contains { $0.ladder != nil }
            ? PracticeStats(entries: entries, now: configuration.now ?? Date()) : nil

        var failed = false
        if let plotPath = configuration.plotPath {
            do {
                // Read again, a line at a time: the chart is thinned to its
                // pixel columns, so it holds no more than they do.
                try writeAtomically(HistoryChart.svg(history: configuration.history, last: configuration.last), to: plotPath)
            } catch {
                stage.diagnostics.error("--plot: \(error)")
                failed = true
            }
        }
        switch configuration.format {
        case .json:
            let record = stats.record()
            practice?.write(to: record)
            stage.output.push(record.serialized())
        case .text:
            let lines = LifetimeScreen.lines(stats, entries: entries, style: configuration.style) + (practice?.lines(style: configuration.style) ?? [])
            stage.output.push(contentsOf: lines.map { Array($0.utf8) })
        }
        if failed { stage.requestStop(.fatal) }
        return stage.drain(failed: false)
    }

    /// Writes `text` to a temporary file beside `path` and renames it into place.
    static func writeAtomically(_ text: String, to path: String) throws(HistoryError) {
        do {
            try SposureKit.writeAtomically(Array(text.utf8), to: path)
        } catch {
            throw HistoryError(error.doing == "create" ? "create" : "write", path: error.path, code: error.code)
        }
    }
}
