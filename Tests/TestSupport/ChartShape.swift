// SVG charts read back with Foundation's XMLParser, for the tests of `score history --plot`.

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What a chart holds: its root element, circles by class, and its text.
public struct ChartShape {
    /// The root element's name.
    public var root = ""
    /// How many circles of each class.
    public var circles: [String: Int] = [:]
    /// The text of every `text` element.
    public var texts: [String] = []
}

/// Parses `svg` with Foundation's XMLParser; throws when it is not well-formed.
public func parse(_ svg: String) throws -> ChartShape {
    let delegate = ChartReader()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = delegate
    guard parser.parse() else {
        throw ChartReader.Malformed(reason: parser.parserError.map { "\($0)" } ?? "unknown")
    }
    return delegate.shape
}

/// Gathers a ``ChartShape`` as XMLParser walks a chart.
final class ChartReader: NSObject, XMLParserDelegate {
    struct Malformed: Error { var reason: String }
    var shape = ChartShape()
    private var text: String?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if shape.root.isEmpty { shape.root = name }
        if name == "circle" { shape.circles[attributes["class"] ?? "", default: 0] += 1 }
        if name == "text" { text = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text? += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let done = text {
            shape.texts.append(done)
            text = nil
        }
    }
}
