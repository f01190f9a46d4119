import FoundationEssentials
import Glibc
import HistoryKit
import SposureKit

/// `score history`: reads the history and writes its statistics, and the chart.
///
/// The history is read a line at a time and each round is added up as it is
/// read (``LifetimeStats/Accumulator``, ``PracticeStats/Accumulator``,
/// ``HistoryChartData``), or written as a CSV row: memory stays flat however
/// long the history. One pass, or two when `--last` or `--plot` needs the
/// number of rounds first (both under the one shared lock).
public enum LifetimeReporter {
    /// Writes the report to `stage`'s output and returns the exit status:
    /// 0, or 2 when the history cannot be read or the chart cannot be written.
    public static func run(stage: Stage, configuration: LifetimeConfiguration) -> Int32 {
        let csv = configuration.exportCSV
        let plotPath = csv ? nil : configuration.plotPath
        let passes = configuration.last != nil || plotPath != nil ? 2 : 1
        var count = 0
        var skip = 0
        var seen = 0
        var stats = LifetimeStats.Accumulator()
        var practice = PracticeStats.Accumulator(now: configuration.now ?? Date())
        var chart = HistoryChartData(count: 0)
        var wroteHeader = false
        let contents: HistoryFile.Contents
        do {
            contents = try configuration.history.scan(passes: passes, while: { pass, entry in
                if stage.stopReason != nil { return false }
                if pass < passes - 1 {
                    count += 1
                    return true
                }
                if seen == 0 && passes > 1 {
                    skip = configuration.last.map { max(0, count - $0) } ?? 0
                    if plotPath != nil { chart = HistoryChartData(count: count - skip) }
                }
                seen += 1
                guard seen > skip else { return true }
                if csv {
                    if !wroteHeader {
                        wroteHeader = true
                        _ = stage.output.push(Array(HistoryCSV.header.utf8))
                    }
                    return stage.output.push(Array(HistoryCSV.row(entry).utf8))
                }
                stats.add(entry)
                practice.add(entry)
                if plotPath != nil { chart.add(entry) }
                return true
            })
        } catch {
            stage.diagnostics.error("\(error)")
            stage.requestStop(.fatal)
            return stage.drain(failed: true)
        }
        for problem in contents.problems { stage.diagnostics.warning(problem) }
        if stage.stopReason != nil { return stage.drain(failed: false) }
        if csv {
            if !wroteHeader { _ = stage.output.push(Array(HistoryCSV.header.utf8)) }
            return stage.drain(failed: false)
        }

        var failed = false
        if let plotPath {
            do {
                try SposureKit.writeAtomically(Array(HistoryChart.svg(chart).utf8), to: plotPath, as: .person)
            } catch {
                stage.diagnostics.error("--plot: \(error)")
                failed = true
            }
        }
        // Practice (today, streak, week, rungs, expectancy) joins the report
        // once there are ladder rounds, or when --now asks for it.
        let practiceStats = configuration.now != nil || practice.hasLadderRounds ? practice.stats : nil
        switch configuration.format {
        case .json:
            let record = stats.stats.record()
            practiceStats?.write(to: record)
            stage.output.push(record.serialized())
        case .text:
            let lines = LifetimeScreen.lines(stats.stats, style: configuration.style) + (practiceStats?.lines(style: configuration.style) ?? [])
            stage.output.push(contentsOf: lines.map { Array($0.utf8) })
        }
        if failed { stage.requestStop(.fatal) }
        return stage.drain(failed: false)
    }
}
