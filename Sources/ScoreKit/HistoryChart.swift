import LadderKit
import HistoryKit
import SposureKit

/// The history as a standalone SVG chart a browser opens.
///
/// Two panels share the x axis, one column per round, oldest on the left:
/// exposure per round above (a line and one `circle class="round"` per round,
/// hollow when the round was incomplete, the best ringed and labelled), and
/// the distress ratings below (0–10, before and after, for rated rounds).
/// Round numbers label the upper axis and dates the lower one. All text is
/// escaped, and characters XML cannot hold are dropped.
///
/// Ladder rounds add the rung as a step line beside exposure, on a second
/// scale at the right (`path class="rung"`, one a ladder), and their peak
/// distress below (`circle class="distress-peak"`); a rating given alone is
/// plotted too. A history longer than the chart has pixel columns is thinned
/// to them (``HistoryChartData``): the file stays small however long it is.
public enum HistoryChart {
    static let width = 900.0
    static let height = 600.0
    static let left = 80.0
    static let right = 860.0
    static let exposureTop = 80.0
    static let exposureBottom = 330.0
    static let distressTop = 400.0
    static let distressBottom = 520.0

    /// The chart of `entries` (oldest first).
    public static func svg(entries: [HistoryEntry], title: String = "Sposure: exposure per round") -> String {
        svg(HistoryChartData(entries: entries), title: title)
    }

    /// The chart of the history in `file` (its latest `last` rounds, when given),
    /// read twice, a line at a time: once to count, once to draw.
    public static func svg(history file: HistoryFile, last: Int? = nil,
                           title: String = "Sposure: exposure per round") throws(FileError) -> String {
        var count = 0
        var skip = 0
        var data = HistoryChartData(count: 0)
        var seen = 0
        try file.scan(passes: 2) { pass, entry in
            if pass == 0 {
                count += 1
                return
            }
            if seen == 0 {
                skip = last.map { max(0, count - $0) } ?? 0
                data = HistoryChartData(count: count - skip)
            }
            seen += 1
            if seen > skip { data.add(entry) }
        }
        return svg(data, title: title)
    }

    /// The chart of `data`.
    public static func svg(_ data: HistoryChartData, title: String = "Sposure: exposure per round") -> String {
        var out: [String] = []
        out.append(##"<?xml version="1.0" encoding="UTF-8"?>"##)
        out.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="sans-serif" font-size="12">"##)
        out.append(##"<rect x="0" y="0" width="\##(Int(width))" height="\##(Int(height))" fill="#ffffff"/>"##)
        out.append(##"<text x="\##(number(left))" y="32" font-size="18" font-weight="bold">\##(escape(title))</text>"##)
        var subtitle = "\(data.count) round\(data.count == 1 ? "" : "s")"
        if let first = data.firstDate, let last = data.lastDate { subtitle += first == last ? ", \(first)" : ", \(first) to \(last)" }
        if data.thinned { subtitle += " (thinned to \(HistoryChartData.columns) columns: each keeps its extremes)" }
        out.append(##"<text x="\##(number(left))" y="54" fill="#555555">\##(escape(subtitle))</text>"##)
        guard data.count > 0 else {
            out.append(##"<text x="\##(number(width / 2))" y="\##(number(height / 2))" text-anchor="middle" fill="#555555">No rounds yet</text>"##)
            out.append("</svg>")
            return out.joined(separator: "\n") + "\n"
        }
        exposurePanel(data, into: &out)
        rungLines(data, into: &out)
        distressPanel(data, into: &out)
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: Panels

    private static func exposurePanel(_ data: HistoryChartData, into out: inout [String]) {
        let top = axisTop(for: data.maxExposedMs)
        func y(_ ms: Int) -> Double { exposureBottom - Double(ms) / Double(top) * (exposureBottom - exposureTop) }
        func x(_ index: Int) -> Double { HistoryChart.x(for: index, count: data.count) }

        out.append(##"<g class="exposure-axis" stroke="#999999">"##)
        out.append(##"<line x1="\##(number(left))" y1="\##(number(exposureTop))" x2="\##(number(left))" y2="\##(number(exposureBottom))"/>"##)
        out.append(##"<line x1="\##(number(left))" y1="\##(number(exposureBottom))" x2="\##(number(right))" y2="\##(number(exposureBottom))"/>"##)
        out.append("</g>")
        for step in 0...4 {
            let ms = top / 4 * step
            let ty = y(ms)
            out.append(##"<line x1="\##(number(left))" y1="\##(number(ty))" x2="\##(number(right))" y2="\##(number(ty))" stroke="#eeeeee"/>"##)
            out.append(##"<text x="\##(number(left - 8))" y="\##(number(ty + 4))" text-anchor="end">\##(escape(DurationText.axisLabel(milliseconds: ms)))</text>"##)
        }
        out.append(##"<text transform="translate(22 \##(number((exposureTop + exposureBottom) / 2))) rotate(-90)" text-anchor="middle">exposure</text>"##)
        for index in labelIndices(count: data.count) {
            out.append(##"<text x="\##(number(x(index)))" y="\##(number(exposureBottom + 18))" text-anchor="middle">\##(index + 1)</text>"##)
        }
        out.append(##"<text x="\##(number((left + right) / 2))" y="\##(number(exposureBottom + 38))" text-anchor="middle" fill="#555555">round</text>"##)

        let marks = data.exposureMarks
        let points = marks.map { "\(number(x($0.index))),\(number(y($0.entry.exposedMs)))" }
        out.append(##"<polyline class="exposure" fill="none" stroke="#2b6cb0" stroke-width="2" points="\##(points.joined(separator: " "))"/>"##)
        for mark in marks {
            let entry = mark.entry
            let fill = entry.incomplete ? "#ffffff" : "#2b6cb0"
            var tip = "Round \(mark.index + 1)"
            if let date = entry.date { tip += ", \(date)" }
            tip += ": \(DurationText.format(milliseconds: entry.exposedMs)), \(entry.points) points"
            let names = entry.sections.map { RemoteText.clean($0.name, limit: 30) }.filter { !$0.isEmpty }
            if !names.isEmpty { tip += " (\(names.joined(separator: ", ")))" }
            if let tag = entry.ladder { tip += ", \(RemoteText.clean(tag.ladder, limit: 40)) rung \(tag.rung)" }
            if entry.incomplete { tip += ", incomplete" }
            out.append(##"<circle class="round" cx="\##(number(x(mark.index)))" cy="\##(number(y(entry.exposedMs)))" r="4" fill="\##(fill)" stroke="#2b6cb0" stroke-width="1.5"><title>\##(escape(tip))</title></circle>"##)
        }
        if let best = data.best {
            let bx = x(best.index)
            let by = y(best.entry.exposedMs)
            let anchor = bx > (left + right) / 2 ? "end" : "start"
            let label = "best: \(DurationText.format(milliseconds: best.entry.exposedMs))"
                + (best.entry.date.map { ", \($0)" } ?? "")
            out.append(##"<circle class="best" cx="\##(number(bx))" cy="\##(number(by))" r="9" fill="none" stroke="#dd6b20" stroke-width="2"/>"##)
            out.append(##"<text class="best-label" x="\##(number(anchor == "end" ? bx - 12 : bx + 12))" y="\##(number(max(exposureTop - 6, by - 12)))" text-anchor="\##(anchor)" fill="#dd6b20" font-weight="bold">\##(escape(label))</text>"##)
        }
    }

    private static func distressPanel(_ data: HistoryChartData, into out: inout [String]) {
        func y(_ rating: Int) -> Double { distressBottom - Double(rating) / 10 * (distressBottom - distressTop) }
        func x(_ index: Int) -> Double { HistoryChart.x(for: index, count: data.count) }
        out.append(##"<g class="distress-axis" stroke="#999999">"##)
        out.append(##"<line x1="\##(number(left))" y1="\##(number(distressTop))" x2="\##(number(left))" y2="\##(number(distressBottom))"/>"##)
        out.append(##"<line x1="\##(number(left))" y1="\##(number(distressBottom))" x2="\##(number(right))" y2="\##(number(distressBottom))"/>"##)
        out.append("</g>")
        for rating in [0, 5, 10] {
            out.append(##"<line x1="\##(number(left))" y1="\##(number(y(rating)))" x2="\##(number(right))" y2="\##(number(y(rating)))" stroke="#eeeeee"/>"##)
            out.append(##"<text x="\##(number(left - 8))" y="\##(number(y(rating) + 4))" text-anchor="end">\##(rating)</text>"##)
        }
        out.append(##"<text transform="translate(22 \##(number((distressTop + distressBottom) / 2))) rotate(-90)" text-anchor="middle">distress</text>"##)
        out.append(##"<text x="\##(number(left))" y="\##(number(distressTop - 12))" fill="#555555">Distress, 0 (calm) to 10, before and after each rated round</text>"##)
        for index in labelIndices(count: data.count, most: 6) {
            let label = (data.labelDates[index] ?? nil) ?? "#\(index + 1)"
            out.append(##"<text class="date" x="\##(number(x(index)))" y="\##(number(distressBottom + 18))" text-anchor="middle">\##(escape(label))</text>"##)
        }
        out.append(##"<text x="\##(number((left + right) / 2))" y="\##(number(distressBottom + 40))" text-anchor="middle" fill="#555555">date</text>"##)

        let before = data.ratingPoints(\.before)
        let after = data.ratingPoints(\.after)
        let peaks = data.peakPoints
        guard !before.isEmpty || !after.isEmpty || !peaks.isEmpty else {
            out.append(##"<text x="\##(number((left + right) / 2))" y="\##(number((distressTop + distressBottom) / 2))" text-anchor="middle" fill="#555555">No distress ratings yet: score --distress BEFORE,AFTER</text>"##)
            return
        }
        for (name, color, points) in [("before", "#c53030", before), ("after", "#2f855a", after)] {
            let line = points.map { "\(number(x($0.index))),\(number(y($0.value)))" }
            out.append(##"<polyline class="distress-\##(name)" fill="none" stroke="\##(color)" stroke-width="2" points="\##(line.joined(separator: " "))"/>"##)
            for point in points {
                out.append(##"<circle class="distress-\##(name)" cx="\##(number(x(point.index)))" cy="\##(number(y(point.value)))" r="3" fill="\##(color)"><title>Round \##(point.index + 1): \##(name) \##(point.value)</title></circle>"##)
            }
        }
        for point in peaks {
            out.append(##"<circle class="distress-peak" cx="\##(number(x(point.index)))" cy="\##(number(y(point.value)))" r="3.5" fill="none" stroke="#dd6b20" stroke-width="1.5"><title>Round \##(point.index + 1): peak \##(point.value)</title></circle>"##)
        }
        let legendX = right - 150
        out.append(##"<g class="legend">"##)
        out.append(##"<line x1="\##(number(legendX))" y1="\##(number(distressTop - 16))" x2="\##(number(legendX + 18))" y2="\##(number(distressTop - 16))" stroke="#c53030" stroke-width="2"/>"##)
        out.append(##"<text x="\##(number(legendX + 24))" y="\##(number(distressTop - 12))">before</text>"##)
        out.append(##"<line x1="\##(number(legendX + 80))" y1="\##(number(distressTop - 16))" x2="\##(number(legendX + 98))" y2="\##(number(distressTop - 16))" stroke="#2f855a" stroke-width="2"/>"##)
        out.append(##"<text x="\##(number(legendX + 104))" y="\##(number(distressTop - 12))">after</text>"##)
        if !peaks.isEmpty {
            out.append(##"<circle cx="\##(number(legendX - 64))" cy="\##(number(distressTop - 16))" r="3.5" fill="none" stroke="#dd6b20" stroke-width="1.5"/>"##)
            out.append(##"<text x="\##(number(legendX - 56))" y="\##(number(distressTop - 12))">peak</text>"##)
        }
        out.append("</g>")
    }

    // MARK: Scales and text

    /// The column of round `index` of `count`; a lone round sits in the middle.
    static func x(for index: Int, count: Int) -> Double {
        let inset = 16.0
        guard count > 1 else { return (left + right) / 2 }
        return left + inset + Double(index) / Double(count - 1) * (right - left - 2 * inset)
    }

    /// A round top for the exposure axis: four equal steps of a readable size.
    static func axisTop(for maxMs: Int) -> Int {
        let steps = [1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600, 900, 1200, 1800, 2700, 3600, 7200, 18000, 36000].map { $0 * 1000 }
        for step in steps where step * 4 >= maxMs { return step * 4 }
        let hour = 3_600_000
        return ((maxMs + 4 * hour - 1) / (4 * hour)) * 4 * hour
    }

    /// Up to `most` evenly spread round indices to label, first and last included.
    static func labelIndices(count: Int, most: Int = 10) -> [Int] {
        guard count > most else { return Array(0..<count) }
        var result: [Int] = []
        for k in 0..<most {
            let index = Int((Double(k) * Double(count - 1) / Double(most - 1)).rounded())
            if result.last != index { result.append(index) }
        }
        return result
    }

    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    /// `text` escaped for XML content and attributes, without characters XML 1.0 forbids.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                let value = scalar.value
                let allowed = value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
                    || (0xE000...0xFFFD).contains(value) || value >= 0x10000
                if allowed { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
