// FlyingFox answering every GET with one file: peer-flyingfox PORT FILE.
import FlyingFox
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = UInt16(arguments[1]),
    let body = FileManager.default.contents(atPath: arguments[2])
else {
    FileHandle.standardError.write(Data("usage: peer-flyingfox PORT FILE\n".utf8))
    exit(2)
}
let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port))
await server.appendRoute("GET *") { _ in
    HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
}
try await server.run()
