import CLISupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import MachO  // _NSGetExecutablePath
#endif

/// `stub-server record`, `import har`, `drift` and `serve --proxy` run in a sibling executable, `stub-server-record`, the way
/// git runs its subcommands: it links FoundationNetworking for its upstream client, which costs the plain
/// `serve` about 7 MB of memory even unused.
enum RecordTool {
    static let name = "stub-server-record"

    /// Whether `arguments` ask for recording, proxying, a HAR import or a coverage report (`import openapi` stays
    /// here).
    static func handles(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        if first == "import" { return arguments.dropFirst().first != "openapi" }
        if ["record", "drift", "coverage"].contains(first) { return true }
        let serving = first == "serve" || first.hasPrefix("-")
        return serving && arguments.contains { $0 == "--proxy" || $0.hasPrefix("--proxy=") }
    }

    /// Replaces this process with the sibling executable; returns 1 with a message only when it cannot.
    static func exec(_ arguments: [String]) -> Int32 {
        let directory = URL(fileURLWithPath: executablePath()).resolvingSymlinksInPath().deletingLastPathComponent()
        let sibling = directory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: sibling) else {
            Output.error(
                "stub-server: \(arguments.first ?? "record") needs \(name) beside \(directory.path); "
                    + "build it with: swift build --product \(name)")
            return 1
        }
        let argv = ([sibling] + arguments).map { strdup($0) } + [nil]
        execv(sibling, argv)
        Output.error("stub-server: cannot run \(sibling): \(String(cString: strerror(errno)))")
        return 1
    }

    /// The running executable's path: from the kernel where it says, else `argv[0]`.
    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        // Darwin: dyld include/mach-o/dyld.h:99 `int _NSGetExecutablePath(char* buf, uint32_t* bufsize)`, 0 when
        // the path fits; it may be a symbolic link (:95), which `exec` resolves.
        #if canImport(Glibc)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 { return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #elseif canImport(Darwin)
            var size = UInt32(buffer.count)
            if _NSGetExecutablePath(&buffer, &size) == 0 { return String(cString: buffer) }
        #endif
        return CommandLine.arguments[0]
    }
}
