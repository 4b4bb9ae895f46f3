// Hummingbird 2 (SwiftNIO) answering every GET with one file: peer-hummingbird PORT FILE.
import Foundation
import Hummingbird

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let body = FileManager.default.contents(atPath: arguments[2])
else {
    FileHandle.standardError.write(Data("usage: peer-hummingbird PORT FILE\n".utf8))
    exit(2)
}
let buffer = ByteBuffer(bytes: body)
let router = Router()
router.get("**") { _, _ in
    Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: buffer))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
