// These tests run chromedriver and Chromium as processes: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import TestTurns
    import Testing

    /// Where chromedriver is looked for, and when its absence fails rather than skips: never on `CI` alone.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct BrowserGateTests {
        @Test func theDriver_isCHROMEDRIVER_elseTheFirstOnPATH() {
            let executables: Set = ["/opt/b/chromedriver", "/usr/bin/chromedriver"]
            let onPath = ["PATH": "/opt/a:/opt/b/:/usr/bin"]
            #expect(Browser.driver(environment: onPath, isExecutable: executables.contains) == "/opt/b/chromedriver")
            #expect(
                Browser.driver(
                    environment: onPath.merging(["CHROMEDRIVER": "/x/cd"]) { $1 }, isExecutable: executables.contains)
                    == "/x/cd")
            #expect(Browser.driver(environment: ["PATH": "/opt/a"], isExecutable: executables.contains) == nil)
            #expect(Browser.driver(environment: [:], isExecutable: executables.contains) == nil)
        }

        @Test(
            arguments: [
                ([:], false, false), (["CI": "true"], false, false), (["BROWSER_TESTS": "required"], false, true),
                ([:], true, true), (["CI": "true"], true, true), (["BROWSER_TESTS": "no"], false, false),
            ] as [([String: String], Bool, Bool)])
        func theSuiteRuns_whenADriverIsFound_orWhenRequired(environment: [String: String], found: Bool, runs: Bool) {
            #expect(Browser.shouldRun(environment: environment, driverFound: found) == runs)
        }
    }
#endif
