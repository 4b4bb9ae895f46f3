/// A run-time request to the server that it cannot carry out.
public enum StubServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No stub has this name.
    case unknownStub(String, known: [String])
    /// The stub has no such variant.
    case unknownVariant(String, stub: String, available: [String])
    /// No stub at all has this variant, so choosing it server-wide would change nothing.
    case variantNowhere(String)
    /// The catalog was not loaded from a folder, so there is nothing to reload.
    case notReloadable

    public var description: String {
        switch self {
        case .unknownStub(let name, let known):
            "no stub named \(name.debugDescription); stubs: \(known.joined(separator: ", "))"
        case .unknownVariant(let variant, let stub, let available):
            "stub \(stub.debugDescription) has no variant \(variant.debugDescription); variants: \(available.joined(separator: ", "))"
        case .variantNowhere(let variant):
            "no stub has a variant \(variant.debugDescription)"
        case .notReloadable:
            "this server's catalog was not loaded from a folder, so it cannot be reloaded"
        }
    }
}
