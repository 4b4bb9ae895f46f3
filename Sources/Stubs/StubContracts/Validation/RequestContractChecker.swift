package import HTTPMessages
import JSONModel
import Locking
package import StubCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Checks each request to a stub that stands for an OpenAPI operation against the operation: its path, query and
/// header parameters (required, type, enum and the rest of their schemas) and its request body (required, media
/// type, schema). Documents are read on first use, relative to the stub's API folder under `root`.
package final class RequestContractChecker: RequestChecker {
    /// The fixtures folder the catalog was read from.
    let root: URL
    private let documents = Lock(DocumentCache())

    package init(root: URL) {
        self.root = root
    }

    /// A checker for `catalog` when any of its stubs stands for an operation; nil otherwise.
    package static func forCatalog(_ catalog: StubCatalog) -> RequestContractChecker? {
        guard let root = catalog.root, catalog.stubs.contains(where: { $0.contract != nil }) else { return nil }
        return RequestContractChecker(root: root)
    }

    package func problems(of request: Request, for stub: Stub, pathParameters: [String: String]) -> [String] {
        guard let contract = stub.contract else { return [] }
        let url = root.appendingPathComponent(stub.api).appendingPathComponent(contract.spec)
        let loaded = documents.withLock { cache in
            Result { () throws(ContractError) in try cache.load(url) }
        }
        let document: OpenAPIDocument
        let operations: [OpenAPIOperation]
        switch loaded {
        case .success(let pair): (document, operations) = pair
        case .failure(let error): return ["openapi: \(contract.spec) cannot be read: \(error)"]
        }
        let named: OpenAPIOperation?
        if contract.operation == .eachRequest {
            let method = request.method == "HEAD" ? "GET" : request.method
            named = operations.first { $0.method == method && PathPattern($0.fullPath).match(request.path) != nil }
            guard named != nil else {
                return ["openapi: \(contract.spec) has no operation \(request.method) \(request.path)"]
            }
        } else {
            named = operations.first(named: contract.operation)
        }
        guard let operation = named else {
            return ["openapi: \(contract.spec) has no operation \(contract.operation)"]
        }
        var check = RequestCheck(
            document: document, validator: SchemaValidator(document: document, direction: .request))
        let captures = PathPattern(operation.fullPath).match(request.path) ?? pathParameters
        for parameter in operation.parameters {
            switch parameter.location {
            case "path":
                check.parameter(parameter, values: captures[parameter.name].map { [$0] } ?? [], place: "path")
            case "query":
                let values = request.query.filter { $0.name == parameter.name }.map(\.value)
                check.parameter(parameter, values: values, place: "query")
            case "header":
                // OpenAPI ignores header parameters named Accept, Content-Type and Authorization.
                let ignored = ["accept", "content-type", "authorization"]
                guard !ignored.contains(parameter.name.lowercased()) else { continue }
                let values = request.headers[parameter.name].map { [$0] } ?? []
                check.parameter(parameter, values: values, place: "header")
            default:
                continue
            }
        }
        if let body = operation.requestBody {
            check.body(request, against: body)
        }
        return check.problems
    }
}

/// One request's check: problems collected in order, each with its place (`query.limit`, `body.name`).
private struct RequestCheck {
    let document: OpenAPIDocument
    var validator: SchemaValidator
    var problems: [String] = []

    /// A parameter's values (query parameters may repeat) against its schema, read as the schema's type.
    mutating func parameter(_ parameter: OpenAPIOperation.Parameter, values: [String], place: String) {
        let name = "\(place).\(parameter.name)"
        guard !values.isEmpty else {
            if parameter.required { problems.append("\(name): missing (required)") }
            return
        }
        guard let schemaNode = parameter.schema, let schema = try? document.resolve(schemaNode),
            case .object(let fields) = schema.value
        else { return }
        let type = ExampleGenerator.type(of: fields)
        let value: JSONValue
        if type == "array" {
            let items = schema["items"].flatMap { try? document.resolve($0) }
            let itemType = items.flatMap {
                if case .object(let f) = $0.value { ExampleGenerator.type(of: f) } else { nil }
            }
            // The form style's default (explode: true) repeats the parameter; explode: false joins values by commas.
            let exploded = parameter.node["explode"]?.value != .bool(false)
            let parts = exploded ? values : values.flatMap { $0.split(separator: ",").map(String.init) }
            var converted: [JSONValue] = []
            for (index, part) in parts.enumerated() {
                guard let item = read(part, as: itemType ?? "string", at: "\(name)[\(index)]") else { return }
                converted.append(item)
            }
            value = .array(converted)
        } else {
            guard let read = read(values[0], as: type, at: name) else { return }
            value = read
        }
        problems += validator.problems(of: value, against: schemaNode).map { $0.placed(under: name) }
    }

    /// A parameter's text as a value of `type`; nil (with a problem) when it is not one.
    private mutating func read(_ text: String, as type: String, at name: String) -> JSONValue? {
        switch type {
        case "integer", "number":
            guard let number = Double(text), number.isFinite else {
                problems.append("\(name): expected \(type), got \(text.debugDescription)")
                return nil
            }
            return .number(number)
        case "boolean":
            guard text == "true" || text == "false" else {
                problems.append("\(name): expected boolean, got \(text.debugDescription)")
                return nil
            }
            return .bool(text == "true")
        default:
            return .string(text)
        }
    }

    /// The body: present when required, of a documented media type, and of the schema when that type is JSON.
    mutating func body(_ request: Request, against bodyNode: OpenAPIDocument.Node) {
        let required = bodyNode["required"]?.value == .bool(true)
        guard !request.body.isEmpty else {
            if required { problems.append("body: missing (required)") }
            return
        }
        guard let content = bodyNode["content"], !content.members.isEmpty else { return }
        let label = request.headers["Content-Type"] ?? ""
        let mediaType = (label.split(separator: ";").first ?? "").trimmingWhitespace().lowercased()
        guard let (key, media) = content.media(for: mediaType) else {
            let accepted = content.members.map(\.key).joined(separator: ", ")
            problems.append(
                "header.Content-Type: \(label.isEmpty ? "missing" : label.debugDescription) is not what the "
                    + "operation accepts (\(accepted))")
            return
        }
        guard let schema = media["schema"], StubMaker.isJSON(key == "*/*" ? mediaType : key) else { return }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(request.body))
        } catch {
            problems.append("body: not JSON")
            return
        }
        problems += validator.problems(of: value, against: schema).map { $0.placed(under: "body") }
    }
}

extension StubRuntime {
    /// Checks requests against their stubs' OpenAPI operations when any stub of the catalog stands for one.
    /// - Returns: whether a checker was installed.
    @discardableResult
    package func installContractChecks() -> Bool {
        guard let checker = RequestContractChecker.forCatalog(catalog) else { return false }
        install(checker)
        return true
    }
}
