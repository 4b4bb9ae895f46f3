/// A document that cannot be read or used, with the file and the key path (or line and column) of the problem.
package struct ContractError: Error, Equatable, CustomStringConvertible {
    /// The file, relative to the document's folder; empty for the document itself (messages name it first).
    package var file: String
    /// The key path inside the file, such as `paths./pets.get.responses.200.content.application/json.schema`;
    /// empty for the file as a whole.
    package var keyPath: String
    package var message: String

    package init(_ file: String, _ keyPath: String, _ message: String) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    package var description: String {
        let place = [file, keyPath].filter { !$0.isEmpty }.joined(separator: ": ")
        return place.isEmpty ? message : "\(place): \(message)"
    }
}
