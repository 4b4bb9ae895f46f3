// Plays an app under UI test, for the tests of `InProcessStubs.startFromEnvironment()` (StubServerCLITests): starts
// its stubs from its launch environment as an app's debug build would, prints `control URL` (or `control none`),
// then, for each line of its standard input (a URL), fetches it with a session of the stubs' configuration and
// prints `STATUS BODY` (a line break in the body as `\n`), or `error CODE` for a URLError. Ends at the end of its input; exits 1, printing why, when the
// environment is wrong, and 2 when it names no fixtures.
import Foundation
import StubServerInProcess

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One line on standard output, at once (a pipe would hold it back).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let stubs: InProcessStubs
do {
    guard let started = try InProcessStubs.startFromEnvironment() else {
        say("no stubs: \(InProcessStubs.Environment.fixtures) is not set")
        exit(2)
    }
    stubs = started
} catch {
    say("error: \(error)")
    exit(1)
}
say("control \(stubs.controlURL?.absoluteString ?? "none")")
let configuration = stubs.sessionConfiguration
configuration.timeoutIntervalForRequest = 5
let session = URLSession(configuration: configuration)
while let line = readLine() {
    guard let url = URL(string: line.trimmingCharacters(in: .whitespaces)) else {
        say("error not a URL: \(line)")
        continue
    }
    do {
        let (data, response) = try await session.data(from: url)
        let body = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n")
        say("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(body)")
    } catch let error as URLError {
        say("error \(error.code.rawValue)")
    } catch {
        say("error \(error)")
    }
}
await stubs.stop()
