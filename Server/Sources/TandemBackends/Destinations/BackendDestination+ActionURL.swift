import Foundation
import TandemProtocol

extension BackendDestination {
    /// The method and URL of `action` on the item `itemID` of `entitySet`, as its actions say.
    ///
    /// An OData key is a string literal (`'A-1'`, quotes doubled inside) unless the set's id is
    /// mapped as `Edm.Int32` or `Edm.Int64`, when it must be digits.
    ///
    /// - Throws: ``BackendDestinationError/invalidActions(entitySet:_:)`` when the set has no
    ///   actions or the id cannot be an integer key; ``BackendDestinationError/invalidBaseURL(_:)``
    ///   when the parts do not make a URL.
    public func actionCall(
        _ action: ItemAction, on itemID: String, of entitySet: BackendEntitySet
    ) throws(BackendDestinationError) -> (method: BackendHTTPMethod, url: URL) {
        guard let actions = entitySet.actions else { throw .invalidActions(entitySet: entitySet.name, "the set has no actions") }
        let call = action == .approve ? actions.approve : actions.reject
        let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        let method: BackendHTTPMethod
        let text: String
        switch call {
        case .rest(let restMethod, let path):
            method = restMethod
            text = base + path.replacingOccurrences(of: "{id}", with: Self.encodedSegment(itemID))
        case .boundAction(let name):
            method = .post
            text = base + entitySet.path + "(" + Self.encoded(try key(itemID, of: entitySet)) + ")/" + name
        case .functionImport(let name, let parameter):
            method = .post
            text = base + name + "?" + parameter + "=" + Self.encoded(try key(itemID, of: entitySet))
        }
        guard let url = URL(string: text) else { throw .invalidBaseURL("the base URL and the action do not make a URL") }
        return (method, url)
    }

    private func key(_ itemID: String, of entitySet: BackendEntitySet) throws(BackendDestinationError) -> String {
        switch entitySet.mapping.id.type {
        case .edmInt32?, .edmInt64?:
            guard !itemID.isEmpty, itemID.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw .invalidActions(entitySet: entitySet.name, "the item's id is not an integer key")
            }
            return itemID
        default:
            return "'" + itemID.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }

    /// `text` percent-encoded as one path segment: unreserved characters as they are.
    static func encodedSegment(_ text: String) -> String {
        encoded(text, keeping: [])
    }
}
