import HTTPMessages
import JSONModel
package import StubCore

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// Checks a catalog's answers against the OpenAPI operations its stubs stand for: every variant whose status the
/// operation documents (generated and faulted ones excepted) against that response's schema for its content type.
/// A templated body is checked as rendered for `GET /` at `http://127.0.0.1:8080`.
package struct FixtureValidator {
    /// The folder the catalog was read from: stubs' `openapi.spec` paths are relative to their API folder in it.
    package var root: URL
    /// A document for stubs that name none: each is matched to its operation by method and path.
    package var spec: URL?
    private var documents = DocumentCache()

    package init(root: URL, spec: URL? = nil) {
        self.root = root
        self.spec = spec
    }

    /// What validation found.
    package struct Report: Sendable {
        /// Each problem: file, stub, variant, and the key path in the body or the document.
        package var problems: [String] = []
        /// How many variants were validated against a schema.
        package var checked = 0
        /// The operations the stubs stood for.
        package var operations = 0
        /// Stubs no operation was found for (with `spec` only; a stub that names one and misses is a problem).
        package var unmatched: [String] = []
        /// Keywords the schemas use that were not checked, with how many schemas use each.
        package var ignored: [String: Int] = [:]

        /// One line: counts, then the ignored keywords.
        package var summary: String {
            var line =
                "\(checked) variant\(checked == 1 ? "" : "s") of \(operations) operation\(operations == 1 ? "" : "s") "
                + "checked, \(problems.count) problem\(problems.count == 1 ? "" : "s")"
            if !ignored.isEmpty {
                line +=
                    "; keywords not checked: "
                    + ignored.keys.sorted().map { "\($0) (\(ignored[$0]!))" }.joined(separator: ", ")
            }
            return line
        }
    }

    package mutating func validate(_ catalog: StubCatalog) -> Report {
        var report = Report()
        var validators: [String: SchemaValidator] = [:]
        // A resource's answers come from its collection, not from its variants' bodies: its requests are checked
        // instead (RequestContractChecker).
        for stub in catalog.stubs where stub.resource == nil {
            let place = "\(stub.file): \(stub.name)"
            guard let (document, operation) = find(stub, place: place, into: &report) else { continue }
            report.operations += 1
            var validator = validators[document.url.path] ?? SchemaValidator(document: document)
            for variantName in stub.variantNames {
                let variant = stub.variants[variantName]!
                guard !variant.generated, variant.fault == nil else { continue }
                let problems = Self.problems(of: variant, against: operation, in: document, validator: &validator)
                if let problems {
                    report.checked += 1
                    let mediaType = variant.header("Content-Type") ?? "no Content-Type"
                    for problem in problems {
                        report.problems.append("\(place) \(variantName) (\(variant.status) \(mediaType)): \(problem)")
                    }
                }
            }
            validators[document.url.path] = validator
        }
        for validator in validators.values {
            report.ignored.merge(validator.ignored) { $0 + $1 }
        }
        return report
    }

    /// The document and operation a stub stands for; nil (with a problem, where one is due) when there is none.
    private mutating func find(_ stub: Stub, place: String, into report: inout Report)
        -> (OpenAPIDocument, OpenAPIOperation)?
    {
        let url: URL
        if let contract = stub.contract {
            url = root.appendingPathComponent(stub.api).appendingPathComponent(contract.spec)
        } else if let spec {
            url = spec
        } else {
            return nil
        }
        let document: OpenAPIDocument
        let operations: [OpenAPIOperation]
        do {
            (document, operations) = try documents.load(url)
        } catch {
            report.problems.append("\(place): openapi.spec \(url.path): \(error)")
            return nil
        }
        if let contract = stub.contract {
            guard let operation = operations.first(named: contract.operation) else {
                report.problems.append(
                    "\(place): openapi names \(contract.operation), which \(url.lastPathComponent) does not have")
                return nil
            }
            return (document, operation)
        }
        guard let operation = Self.operation(matching: stub, in: operations) else {
            report.unmatched.append(place)
            return nil
        }
        return (document, operation)
    }

    /// The operation with the stub's method whose full path fits the stub's path, most literal segments first; when
    /// both name hosts (the operation's servers, the stub's folder's `hosts`), only an operation of one of the stub's
    /// hosts (another API at the same path is not this one).
    static func operation(matching stub: Stub, in operations: [OpenAPIOperation]) -> OpenAPIOperation? {
        let stubSegments = stub.request.path.segments
        let stubHosts = Set(stub.hosts.map { $0.lowercased() })
        var best: (operation: OpenAPIOperation, score: Int)?
        for operation in operations where operation.method == stub.request.method {
            if !stubHosts.isEmpty, !operation.hosts.isEmpty, stubHosts.isDisjoint(with: operation.hosts) { continue }
            let segments = PathPattern(operation.fullPath).segments
            guard segments.count == stubSegments.count else { continue }
            var score = 0
            var fits = true
            for (mine, theirs) in zip(stubSegments, segments) {
                switch (mine, theirs) {
                case (.literal(let a), .literal(let b)):
                    fits = fits && a == b
                    score += 2
                case (.literal, .parameter), (.parameter, .parameter): score += 1
                case (.parameter, .literal): fits = false
                }
            }
            if fits, score > best?.score ?? -1 { best = (operation, score) }
        }
        return best?.operation
    }

    /// What is wrong with one variant's answer; nil when the operation documents nothing to check it against.
    static func problems(
        of variant: StubVariant, against operation: OpenAPIOperation, in document: OpenAPIDocument,
        validator: inout SchemaValidator
    ) -> [String]? {
        let status = String(variant.status)
        let keys = [status, "\(status.first!)XX", "\(status.first!)xx", "default"]
        guard let response = keys.lazy.compactMap({ key in operation.responses.first { $0.status == key } }).first
        else { return nil }
        let mediaType =
            (variant.header("Content-Type") ?? "").split(separator: ";").first.map {
                $0.trimmingWhitespace().lowercased()
            } ?? ""
        guard let content = response.node["content"], !content.members.isEmpty else {
            return variant.body.isEmpty
                ? []
                : ["\(response.node.location) documents no body, the variant has \(variant.body.count) bytes"]
        }
        guard let (key, media) = content.media(for: mediaType) else {
            return [
                "Content-Type \(mediaType.isEmpty ? "(none)" : mediaType) is not documented at "
                    + "\(content.location) (documented: \(content.members.map(\.key).joined(separator: ", ")))"
            ]
        }
        guard let schema = media["schema"], StubMaker.isJSON(key == "*/*" ? mediaType : key) else { return [] }
        guard !variant.body.isEmpty else { return ["(the body): empty, \(media.location) documents JSON"] }
        var body = variant.body
        if let kind = variant.templateKind, let request = try? Request(method: "GET", target: "/") {
            // A templated body as a request to the server's default address would get it (empty query values).
            body = Template(baseURL: "http://127.0.0.1:8080", request: request, pathParameters: [:])
                .render(body, escaping: Template.Escaping(kind))
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            return ["(the body): not JSON (\(error))"]
        }
        return validator.problems(of: value, against: schema).map(\.description)
    }
}
