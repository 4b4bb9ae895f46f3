package import HTTPMessages
package import JSONModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a stub matches GraphQL operations, which share one path (`POST /graphql`) and differ by their JSON:
/// `{"operationName": MATCHER, "variables": {...}, "query": MATCHER, "persistedQuery": MATCHER}`, each optional.
package struct GraphQLMatcher: Sendable, Equatable {
    package var operationName: ValueMatcher?
    /// A subset the operation's variables must contain (objects by subset, arrays element by element).
    package var variables: JSONValue?
    package var query: ValueMatcher?
    /// Matches `extensions.persistedQuery.sha256Hash`, for persisted queries sent without their text.
    package var persistedQuery: ValueMatcher?

    package init(
        operationName: ValueMatcher? = nil, variables: JSONValue? = nil, query: ValueMatcher? = nil,
        persistedQuery: ValueMatcher? = nil
    ) {
        self.operationName = operationName
        self.variables = variables
        self.query = query
        self.persistedQuery = persistedQuery
    }

    /// Every field the request's operations fail, named `graphql.operationName`, `graphql.variables.id`...; empty
    /// when each operation of the request (one, or each of a batch) matches.
    package func mismatches(of request: Request, body: RequestBody) -> [StubMiss.Mismatch] {
        let operations = GraphQLOperation.all(in: request, body: body)
        guard !operations.isEmpty else {
            return [.init(field: "graphql", expected: "a GraphQL operation", actual: "none in the request")]
        }
        for operation in operations {
            var found: [StubMiss.Mismatch] = []
            if let operationName, !operationName.accepts(operation.operationName) {
                found.append(
                    .init(
                        field: "graphql.operationName", expected: operationName.description,
                        actual: operation.operationName?.debugDescription ?? "(absent)"))
            }
            if let query, !query.accepts(operation.query) {
                found.append(
                    .init(
                        field: "graphql.query", expected: query.description,
                        actual: operation.query.map { RequestBody.short($0) } ?? "(absent)"))
            }
            if let persistedQuery, !persistedQuery.accepts(operation.persistedQueryHash) {
                found.append(
                    .init(
                        field: "graphql.persistedQuery", expected: persistedQuery.description,
                        actual: operation.persistedQueryHash?.debugDescription ?? "(absent)"))
            }
            if let variables {
                BodyMatcher.compare(
                    variables, operation.variables ?? .object([:]), exact: false, at: "graphql.variables", into: &found)
            }
            if !found.isEmpty { return found }
        }
        return []
    }

    /// Specificity, as body conditions count: exact matchers, patterns, and conditions in all.
    var conditions: (exact: Int, patterns: Int, all: Int) {
        let matchers = [operationName, query, persistedQuery].compactMap { $0 }
        let patterns = matchers.filter { if case .matches = $0 { true } else { false } }.count
        return (
            matchers.filter(\.isExact).count + (variables == nil ? 0 : 1), patterns,
            matchers.count + (variables == nil ? 0 : 1)
        )
    }
}

extension GraphQLMatcher: CustomStringConvertible {
    /// Reads as `operationName "TopAlbums" variables {"id":"7"}`.
    package var description: String {
        var parts: [String] = []
        if let operationName { parts.append("operationName \(operationName)") }
        if let variables { parts.append("variables \(variables.jsonText)") }
        if let query { parts.append("query \(query)") }
        if let persistedQuery { parts.append("persistedQuery \(persistedQuery)") }
        return parts.joined(separator: " ")
    }
}

/// One GraphQL operation as a request carries it.
package struct GraphQLOperation: Equatable {
    package var operationName: String?
    package var query: String?
    package var variables: JSONValue?
    package var persistedQueryHash: String?

    /// The operations of `request`: a `GET` with `query`, `operationName`, `variables` and `extensions`
    /// parameters, or a JSON body holding one operation or a batch (an array of them); none for anything else.
    package static func all(in request: Request, body: RequestBody) -> [GraphQLOperation] {
        if request.method == "GET" || request.method == "HEAD" {
            let json = { (name: String) in
                request.queryValue(name).flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
            }
            guard
                request.queryValue("query") != nil || request.queryValue("operationName") != nil
                    || request.queryValue("extensions") != nil
            else { return [] }
            return [
                GraphQLOperation(
                    operationName: request.queryValue("operationName"), query: request.queryValue("query"),
                    variables: json("variables"), persistedQueryHash: hash(in: json("extensions")))
            ]
        }
        switch body.json {
        case .object(let fields)?: return operation(fields).map { [$0] } ?? []
        case .array(let items)?:
            let operations = items.compactMap { item -> GraphQLOperation? in
                if case .object(let fields) = item { return operation(fields) }
                return nil
            }
            return operations.count == items.count ? operations : []
        default: return []
        }
    }

    private static func operation(_ fields: [String: JSONValue]) -> GraphQLOperation? {
        guard fields["query"] != nil || fields["operationName"] != nil || fields["extensions"] != nil else {
            return nil
        }
        let text = { (value: JSONValue?) -> String? in
            if case .string(let text)? = value { return text }
            return nil
        }
        return GraphQLOperation(
            operationName: text(fields["operationName"]), query: text(fields["query"]), variables: fields["variables"],
            persistedQueryHash: hash(in: fields["extensions"]))
    }

    private static func hash(in extensions: JSONValue?) -> String? {
        guard case .object(let fields)? = extensions, case .object(let persisted)? = fields["persistedQuery"],
            case .string(let hash)? = persisted["sha256Hash"]
        else { return nil }
        return hash
    }
}
