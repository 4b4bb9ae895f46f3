import Foundation
import StubServer
import YAMLParsing

/// The YAML reader on a 1 MB document shaped like an OpenAPI specification: paths with parameters, block and
/// flow styles, quoted and block scalars, anchors and aliases.
enum YAMLBenchmark {
    static func document() -> [UInt8] {
        var text = "openapi: 3.1.0\ninfo: {title: \"Catalog\", version: '1.0'}\ncomponents:\n  parameters:\n"
        text += "    limit: &limit {name: limit, in: query, schema: {type: integer, maximum: 200}}\n"
        text += "paths:\n"
        var index = 0
        while text.utf8.count < 1 << 20 {
            text += """
                  /items/\(index)/{id}:
                    get:
                      operationId: getItem\(index)
                      summary: "Item \(index), with \\"quotes\\" and \\u00e9"
                      description: |
                        Returns one item.
                        Second line of the description.
                      parameters:
                        - *limit
                        - name: id
                          in: path
                          required: true
                          schema: {type: string, pattern: '^[0-9]+$'}
                      responses:
                        '200':
                          description: >-
                            The item,
                            folded.
                          content:
                            application/json:
                              example: {id: \(index), name: item \(index), tags: [a, b, c], price: 1.5, sold: false}

                """
            index += 1
        }
        return Array(text.utf8)
    }

    static func read() async throws -> BenchmarkResult {
        let bytes = document()
        return try await BenchmarkResult.measure(iterations: 15, unit: "read of \(bytes.count / 1024) KB") {
            _ = try YAMLReader.value(bytes)
        }
    }
}
