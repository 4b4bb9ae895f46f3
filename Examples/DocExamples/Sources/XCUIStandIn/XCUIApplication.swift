// Linux has no UI testing: these stand in for the members of Apple's XCUIApplication and XCUIElement that the
// guides' UI-test examples use, so those examples compile here in Swift 6 mode too and an isolation mistake shows.
// Main-actor isolated, as the examples treat them (their UI tests are `@MainActor`). Never run: the generated files
// that use them are built, not run.
#if os(Linux)
    import Foundation

    /// Stands in for XCUIAutomation's element.
    @MainActor
    open class XCUIElement {
        public init() {}

        /// Whether the element appeared within `timeout` seconds.
        public func waitForExistence(timeout: TimeInterval) -> Bool { false }
    }

    /// Stands in for XCUIAutomation's element query.
    @MainActor
    public final class XCUIElementQuery {
        public init() {}

        public subscript(_ identifier: String) -> XCUIElement { XCUIElement() }
    }

    /// Stands in for XCUIAutomation's application proxy.
    @MainActor
    open class XCUIApplication: XCUIElement {
        public var launchEnvironment: [String: String] = [:]
        public var staticTexts: XCUIElementQuery { XCUIElementQuery() }

        public override init() {}

        public func launch() {}
    }
#endif
