import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Documents and their operations, read once per path (a failure too): what validation and request checks share.
struct DocumentCache {
    private var loaded: [String: Result<(OpenAPIDocument, [OpenAPIOperation]), ContractError>] = [:]

    mutating func load(_ url: URL) throws(ContractError) -> (OpenAPIDocument, [OpenAPIOperation]) {
        let key = url.standardizedFileURL.path
        if loaded[key] == nil {
            loaded[key] = Result { () throws(ContractError) in
                let document = try OpenAPIDocument.load(url)
                return (document, try document.operations())
            }
        }
        return try loaded[key]!.get()
    }
}
