import SposureKit

extension HistoryChart {
    /// The colours of the ladders' step lines, in turn.
    static let rungColors = ["#6b46c1", "#319795", "#b7791f", "#d53f8c"]

    /// The rung of each ladder as a step line over the exposure panel, on its
    /// own scale at the right (rung 0 at the bottom, the highest rung played
    /// at the top): the rung holds from one round of the ladder to its next.
    /// Nothing when the history has no ladder round.
    static func rungLines(_ data: HistoryChartData, into out: inout [String]) {
        guard !data.ladders.isEmpty, data.topRung > 0 else { return }
        let top = data.topRung
        func y(_ rung: Int) -> Double { exposureBottom - Double(rung) / Double(top) * (exposureBottom - exposureTop) }
        func x(_ index: Int) -> Double { HistoryChart.x(for: index, count: data.count) }

        out.append(##"<g class="rung-axis" stroke="#999999">"##)
        out.append(##"<line x1="\##(number(right))" y1="\##(number(exposureTop))" x2="\##(number(right))" y2="\##(number(exposureBottom))"/>"##)
        out.append("</g>")
        let every = max(1, (top + 9) / 10)
        for rung in stride(from: every, through: top, by: every) {
            out.append(##"<text class="rung-tick" x="\##(number(right + 8))" y="\##(number(y(rung) + 4))" fill="#6b46c1">\##(rung)</text>"##)
        }
        out.append(##"<text transform="translate(\##(number(width - 12)) \##(number((exposureTop + exposureBottom) / 2))) rotate(90)" text-anchor="middle" fill="#6b46c1">rung</text>"##)

        var legendY = exposureTop - 16
        for (number, ladder) in data.ladders.enumerated() {
            let points = data.rungPoints(ladder)
            guard let first = points.first, let last = points.last else { continue }
            let color = rungColors[number % rungColors.count]
            var path = "M\(HistoryChart.number(x(first.index))) \(HistoryChart.number(y(first.value)))"
            for point in points.dropFirst() {
                path += " H\(HistoryChart.number(x(point.index))) V\(HistoryChart.number(y(point.value)))"
            }
            let name = escape(RemoteText.clean(ladder, limit: 40))
            let tip = "\(name): rung \(first.value) to \(last.value)"
            out.append(##"<path class="rung" d="\##(path)" fill="none" stroke="\##(color)" stroke-width="1.5" stroke-dasharray="4 2"><title>\##(tip)</title></path>"##)
            let legendX = right - 150
            out.append(##"<g class="legend">"##)
            out.append(##"<path d="M\##(HistoryChart.number(legendX)) \##(HistoryChart.number(legendY + 4)) H\##(HistoryChart.number(legendX + 9)) V\##(HistoryChart.number(legendY - 4)) H\##(HistoryChart.number(legendX + 18))" fill="none" stroke="\##(color)" stroke-width="1.5"/>"##)
            out.append(##"<text x="\##(HistoryChart.number(legendX + 24))" y="\##(HistoryChart.number(legendY + 4))">rung, \##(name)</text>"##)
            out.append("</g>")
            legendY -= 16
        }
    }
}
