// Fetches a fixture through an in-process stub server and prints how many sockets the process holds before and
// after, from /proc/self/fd (Linux): the in-process transport opens none. A process of its own, so no other test's
// sockets come and go meanwhile. `--control` opens one socket between the counts, to show the count sees them.
//
//     InProcessProbe FIXTURES [--control]
#if os(Linux)
    import Foundation
    import StubServerInProcess

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The process's descriptors that are sockets, and how many of them are TCP (their inode is in
    /// /proc/self/net/tcp or tcp6; URLSession's own machinery may hold local socket pairs).
    func socketCount() -> (all: Int, tcp: Int) {
        let fileManager = FileManager.default
        let descriptors = (try? fileManager.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let inodes = descriptors.compactMap { descriptor -> String? in
            guard let link = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                link.hasPrefix("socket:[")
            else { return nil }
            return String(link.dropFirst(8).dropLast())
        }
        // Read to the end: procfs reports a size of 0, and the table outgrows one read when many sockets are open.
        let tables = ["/proc/self/net/tcp", "/proc/self/net/tcp6"].compactMap { path in
            FileHandle(forReadingAtPath: path).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }
        }
        let tcpInodes = Set(
            tables.flatMap { $0.split(separator: "\n").dropFirst() }.compactMap { line in
                let fields = line.split(separator: " ")
                return fields.count > 9 ? String(fields[9]) : nil
            })
        return (inodes.count, inodes.filter(tcpInodes.contains).count)
    }

    // Descriptors inherited from the process that started this one (a test runner's sockets, where something opened
    // them without FD_CLOEXEC) are not this process's: closed before the first count.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        if let descriptor = Int32(name), descriptor > 2 { close(descriptor) }
    }
    let fixtures = URL(fileURLWithPath: CommandLine.arguments[1])
    let url = URL(string: "https://itunes.apple.com/search?term=jack+johnson&offset=0&limit=25")!
    let before = socketCount()
    let stubs = try InProcessStubs.start(fixtures: fixtures)
    let (data, response) = try await stubs.urlSession.data(from: url)
    var control: Int32 = -1
    if CommandLine.arguments.contains("--control") {
        // A listening TCP socket on an ephemeral loopback port, as a socket transport would open.
        control = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(control, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(control, 1)
    }
    let after = socketCount()
    if control >= 0 { close(control) }
    await stubs.stop()
    let fixture = try Data(contentsOf: fixtures.appendingPathComponent("itunes-search/jack-johnson.0.json"))
    print(
        "tcp sockets before=\(before.tcp) after=\(after.tcp); sockets before=\(before.all) after=\(after.all);",
        "status=\((response as? HTTPURLResponse)?.statusCode ?? 0) identical=\(data == fixture)")
#endif
