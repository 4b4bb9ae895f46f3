import StubServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The routes of a catalog as an aligned text table.
enum RouteTable {
    /// One line per stub, with `*` on the variant it answers by default: its sequence's first, else
    /// `serverVariant` when it has that variant, else `good`.
    static func render(_ catalog: StubCatalog, serverVariant: String?) -> String {
        let header = ["METHOD", "ROUTE", "STUB", "VARIANTS"]
        let rows = catalog.stubs.map { stub in
            let current = stub.sequence.first ?? serverVariant.flatMap { stub.variants[$0] != nil ? $0 : nil } ?? "good"
            let variants = stub.variantNames.map { $0 == current ? "\($0)*" : $0 }.joined(separator: " ")
            let sequence = stub.sequence.isEmpty ? "" : " (sequence: \(stub.sequence.joined(separator: ", ")))"
            let scenario = stub.scenario.map { " (scenario \($0))" } ?? ""
            return [stub.request.method, stub.request.summary, stub.name, variants + sequence + scenario]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1
                    ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
