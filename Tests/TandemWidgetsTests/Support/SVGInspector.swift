import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses an SVG with Foundation's XMLParser: whether it is well-formed, the root's
/// attributes, and every element's text.
final class SVGInspector: NSObject, XMLParserDelegate {
    private(set) var rootAttributes: [String: String] = [:]
    private(set) var texts: [String] = []
    private(set) var elementCount = 0
    private var currentText: String?
    private(set) var isWellFormed = false

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        isWellFormed = parser.parse()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        if elementCount == 0 { rootAttributes = attributes }
        elementCount += 1
        if name == "text" { currentText = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        currentText? += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let text = currentText {
            texts.append(text)
            currentText = nil
        }
    }
}
