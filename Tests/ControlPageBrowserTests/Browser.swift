// These tests run chromedriver and Chromium as processes: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import ChildProcesses
    import Foundation
    import StubTestSupport

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Headless Chromium driven over WebDriver (chromedriver), for testing the control page with real clicks and
    /// key presses. Debian's `chromium` and `chromium-driver` packages; `.ci/run` installs them.
    struct Browser {
        /// chromedriver: `$CHROMEDRIVER`, else the first on `$PATH`; `/usr/bin/chromedriver` in messages when none.
        static let driverPath =
            driver(environment: ProcessInfo.processInfo.environment, isExecutable: FileManager.default.isExecutableFile)
            ?? "/usr/bin/chromedriver"

        /// Whether to run: chromedriver is here, or `BROWSER_TESTS=required` says its absence must fail, not skip
        /// (`.ci/run` sets it where it installs Chromium; a CI elsewhere, a Mac runner, skips without a driver).
        static var isAvailable: Bool {
            shouldRun(
                environment: ProcessInfo.processInfo.environment,
                driverFound: FileManager.default.isExecutableFile(atPath: driverPath))
        }

        /// The chromedriver to use: `CHROMEDRIVER` when set, else the first executable `chromedriver` on `PATH`.
        static func driver(environment: [String: String], isExecutable: (String) -> Bool) -> String? {
            if let explicit = environment["CHROMEDRIVER"] { return explicit }
            let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
            return folders.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + "chromedriver" }.first(where: isExecutable)
        }

        static func shouldRun(environment: [String: String], driverFound: Bool) -> Bool {
            driverFound || environment["BROWSER_TESTS"] == "required"
        }

        let port: Int
        let session: String

        /// Keys as WebDriver spells them.
        enum Key {
            static let arrowDown = "\u{E015}"
            static let enter = "\u{E007}"
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        /// Starts chromedriver and a headless browser, runs `body`, and ends both, also when `body` throws.
        static func withSession<T>(_ body: (Browser) async throws -> T) async throws -> T {
            guard FileManager.default.isExecutableFile(atPath: driverPath) else {
                throw Failure(description: "no chromedriver at \(driverPath): apt-get install chromium chromium-driver")
            }
            let port = try freePort()
            let driver = try ChildProcess(driverPath, arguments: ["--port=\(port)"], stdout: .discard, stderr: .discard)
            defer { driver.signal(SIGKILL) }  // reaped by its waiting thread
            try await waitUntil("chromedriver to answer", every: .milliseconds(20)) {
                let ready = try? await Self.call(port, "GET", "/status", nil) as? [String: Any]
                return ready?["ready"] as? Bool == true
            }
            let capabilities: [String: Any] = [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "chrome",
                        "goog:chromeOptions": [
                            "args": [
                                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                "--window-size=1280,1400",
                            ]
                        ],
                    ]
                ]
            ]
            let created = try await call(port, "POST", "/session", capabilities) as? [String: Any]
            guard let session = created?["sessionId"] as? String else {
                throw Failure(description: "chromedriver started no session: \(String(describing: created))")
            }
            let browser = Browser(port: port, session: session)
            do {
                let result = try await body(browser)
                _ = try? await browser.command("DELETE", "")
                return result
            } catch {
                _ = try? await browser.command("DELETE", "")
                throw error
            }
        }

        func open(_ url: URL) async throws {
            _ = try await command("POST", "/url", ["url": url.absoluteString])
        }

        /// The first element matching `css`.
        func find(_ css: String) async throws -> String {
            let found = try await command("POST", "/element", ["using": "css selector", "value": css])
            guard let id = Self.elementID(found) else { throw Failure(description: "no element matches \(css)") }
            return id
        }

        func findAll(_ css: String) async throws -> [String] {
            let found = try await command("POST", "/elements", ["using": "css selector", "value": css])
            return (found as? [Any] ?? []).compactMap(Self.elementID)
        }

        func click(_ element: String) async throws {
            _ = try await command("POST", "/element/\(element)/click", [:])
        }

        /// Types `keys` into `element`, as a user with the element focused would.
        func sendKeys(_ element: String, _ keys: String) async throws {
            _ = try await command("POST", "/element/\(element)/value", ["text": keys])
        }

        /// The text of `css`'s first match as the user sees it.
        func text(_ css: String) async throws -> String {
            let element = try await find(css)
            return try await command("GET", "/element/\(element)/text") as? String ?? ""
        }

        /// Runs `script` in the page and returns its result.
        func execute(_ script: String) async throws -> Any? {
            try await command("POST", "/execute/sync", ["script": script, "args": []])
        }

        func screenshot() async throws -> Data {
            let encoded = try await command("GET", "/screenshot") as? String ?? ""
            guard let data = Data(base64Encoded: encoded) else { throw Failure(description: "no screenshot") }
            return data
        }

        private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
            try await Self.call(port, method, "/session/\(session)\(path)", body)
        }

        /// One WebDriver command over a raw connection: FoundationNetworking's URLSession cannot read chromedriver's
        /// answers (header lines without a space after the colon; swift-corelibs-foundation issue 4965).
        private static func call(_ port: Int, _ method: String, _ path: String, _ body: [String: Any]?) async throws
            -> Any?
        {
            let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
            let head =
                "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n"
            let client = try await RawHTTPClient(port: port)
            try await client.send(Array(head.utf8) + Array(payload))
            let response = try await client.readResponse()
            let value = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["value"]
            if response.status >= 400 {
                let message = (value as? [String: Any])?["message"] as? String ?? response.text
                throw Failure(description: "\(method) \(path): \(response.status) \(message)")
            }
            return value
        }

        private static func elementID(_ value: Any?) -> String? {
            (value as? [String: Any])?["element-6066-11e4-a52e-4f735466cecf"] as? String
        }

        /// A loopback port nobody listens on now (the kernel's pick, released for chromedriver to take).
        private static func freePort() throws -> Int {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            guard bound else { throw Failure(description: "no free port: errno \(errno)") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
#endif
