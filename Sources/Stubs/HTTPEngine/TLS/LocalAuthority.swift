import HTTPMessages

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A certificate authority of this machine's own, kept in a folder of the user's: made on first use, trusted once
/// by each client (a simulator, the system, curl), and signing a leaf for every HTTPS server the package starts.
///
/// Certificates are the package's own DER (`CertificateDER`), signed with the platform's keys (`SigningKey`:
/// OpenSSL on Linux, CryptoKit on Apple platforms), so one folder serves both.
///
/// The folder holds `ca.pem` (the certificate clients trust), `ca-key.pem` and `server-key.pem` (the key of every
/// leaf, so that an app can pin it; both readable by the user alone).
package struct LocalAuthority: Sendable {
    /// The folder the authority lives in.
    package let folder: String
    /// The authority's certificate, PEM-encoded: what a client trusts.
    package let certificatePEM: String
    private let keyPEM: String
    /// The key every valid leaf has.
    private let serverKeyPEM: String

    /// How a leaf differs from the one a client should accept.
    package enum Leaf: Sendable, CaseIterable {
        case valid
        /// Its validity ended yesterday.
        case expired
        /// Its validity starts tomorrow.
        case notYetValid
        /// It names `wrong-host.invalid` only.
        case wrongHost
        /// Signed by its own key, not the authority's.
        case selfSigned
        /// Signed by an authority of its own that no client trusts.
        case unknownAuthority
        /// Valid, with a key other than the server key: what a pinning client refuses.
        case otherKey
    }

    /// `ca.pem` in `folder`: the file the trust commands name.
    package var certificatePath: String { folder + "/ca.pem" }

    /// The authority certificate's subject (its common name).
    package static let commonName = "stub-server local authority"

    /// The host names and addresses every leaf names.
    package static let loopbackHosts = ["localhost", "127.0.0.1", "::1"]

    /// The folder used unless one is given: `STUB_SERVER_AUTHORITY` when set; else, on macOS,
    /// `~/Library/Application Support/stub-server/authority`, and elsewhere
    /// `$XDG_DATA_HOME/stub-server/authority` (`~/.local/share` when unset).
    package static var defaultFolder: String {
        defaultFolder { name in getenv(name).map { String(cString: $0) } }
    }

    /// `defaultFolder` with the environment's variables read through `variable`.
    static func defaultFolder(_ variable: (String) -> String?) -> String {
        func value(_ name: String) -> String? { variable(name).flatMap { $0.isEmpty ? nil : $0 } }
        if let folder = value("STUB_SERVER_AUTHORITY") { return folder }
        let home = value("HOME") ?? "."
        #if os(macOS)
            // Application Support, as https://developer.apple.com/documentation/foundation/filemanager/searchpathdirectory/applicationsupportdirectory names it.
            return home + "/Library/Application Support/stub-server/authority"
        #else
            return (value("XDG_DATA_HOME") ?? home + "/.local/share") + "/stub-server/authority"
        #endif
    }

    /// The authority in `folder`, made there first when the folder holds none. Two processes that make one at
    /// once both end with the same authority: each writes its own into a folder beside, and the first to rename
    /// its folder into place wins.
    /// - Throws: `TLSError` when the folder cannot be written or holds an authority that does not load.
    package static func loadOrCreate(in given: String = defaultFolder) throws(TLSError) -> LocalAuthority {
        var folder = given
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        if let existing = try load(folder) { return existing }
        let key = try SigningKey.make()
        let certificate = try CertificateMaker.certificate(
            .init(commonName: commonName, isAuthority: true, validUntil: 10 * 365 * 86_400), key: key, issuer: nil,
            now: time(nil))
        let made = (
            certificate: PEMText.encode(certificate, label: "CERTIFICATE"), key: key.pem,
            serverKey: try SigningKey.make().pem
        )
        let parent = String(folder.prefix(upTo: folder.lastIndex(of: "/") ?? folder.startIndex))
        try makeFolders(parent.isEmpty ? "." : parent)
        let staging = folder + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        guard mkdir(staging, 0o755) == 0 else { throw TLSError("cannot make \(staging): \(errorText())") }
        try write(made.certificate, to: staging + "/ca.pem", mode: 0o644)
        try write(made.key, to: staging + "/ca-key.pem", mode: 0o600)
        try write(made.serverKey, to: staging + "/server-key.pem", mode: 0o600)
        if rename(staging, folder) != 0 {
            let code = errno
            // Another process's authority came first (or the folder appeared meanwhile): use that one.
            for file in ["ca.pem", "ca-key.pem", "server-key.pem"] { _ = unlink(staging + "/" + file) }
            _ = rmdir(staging)
            guard code == EEXIST || code == ENOTEMPTY else {
                throw TLSError("cannot make \(folder): \(String(cString: strerror(code)))")
            }
        }
        guard let authority = try load(folder) else { throw TLSError("\(folder) holds no authority") }
        return authority
    }

    /// The authority in `folder`, or nil when it has none.
    private static func load(_ folder: String) throws(TLSError) -> LocalAuthority? {
        guard let certificate = read(folder + "/ca.pem") else { return nil }
        var keys: [String] = []
        for file in ["ca-key.pem", "server-key.pem"] {
            guard let key = read(folder + "/" + file) else {
                throw TLSError("\(folder)/\(file) is missing or unreadable: remove \(folder) to make a new authority")
            }
            keys.append(key)
        }
        return LocalAuthority(folder: folder, certificatePEM: certificate, keyPEM: keys[0], serverKeyPEM: keys[1])
    }

    /// A leaf identity for `hosts` (and the loopback names) with the server key, signed by this authority, valid
    /// from an hour ago for a year; or, with `leaf`, one of the ways a leaf fails a client.
    /// - Throws: `TLSError` when the authority's files do not load.
    package func issue(hosts: [String] = [], leaf: Leaf = .valid) throws(TLSError) -> TLSIdentity {
        var names = Self.loopbackHosts
        for host in hosts where !names.contains(host) { names.append(host) }
        if leaf == .wrongHost { names = ["wrong-host.invalid"] }
        let day = 86_400
        let (validFrom, validUntil) =
            switch leaf {
            case .expired: (-2 * 365 * day, -day)
            case .notYetValid: (day, 366 * day)
            default: (-3600, 365 * day)
            }
        let key = leaf == .otherKey ? try SigningKey.make() : try SigningKey(pem: serverKeyPEM)
        let certificate = try CertificateMaker.certificate(
            .init(commonName: names[0], hosts: names, validFrom: validFrom, validUntil: validUntil), key: key,
            issuer: try signer(for: leaf), now: time(nil))
        return TLSIdentity(
            certificateChainPEM: PEMText.encode(certificate, label: "CERTIFICATE"), privateKeyPEM: key.pem)
    }

    /// The server key's pin as clients write it: `sha256//` and the Base64 of the SHA-256 of its
    /// SubjectPublicKeyInfo (what `curl --pinnedpubkey` takes, and what apps that pin a public key compare).
    package func serverKeyPin() throws(TLSError) -> String {
        "sha256//" + Base64.encode(try SigningKey.sha256(try SigningKey(pem: serverKeyPEM).publicKeyInfo()))
    }

    /// Who signs a leaf of this kind (nil: the leaf's own key).
    private func signer(for leaf: Leaf) throws(TLSError) -> (certificate: [UInt8], key: SigningKey)? {
        switch leaf {
        case .selfSigned:
            return nil
        case .unknownAuthority:
            let key = try SigningKey.make()
            let certificate = try CertificateMaker.certificate(
                .init(commonName: "an authority no client trusts", isAuthority: true, validUntil: 365 * 86_400),
                key: key, issuer: nil, now: time(nil))
            return (certificate, key)
        default:
            guard let certificate = try PEMText.decode(certificatePEM, label: "CERTIFICATE").first else {
                throw TLSError("\(certificatePath) holds no certificate: remove \(folder) to make a new authority")
            }
            return (certificate, try SigningKey(pem: keyPEM))
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String, mode: mode_t) throws(TLSError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw TLSError("cannot write \(path): \(errorText())") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else { throw TLSError("cannot write \(path): \(errorText())") }
            written += count
        }
    }

    /// `mkdir -p path`.
    private static func makeFolders(_ path: String) throws(TLSError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw TLSError("cannot make \(current): \(errorText())")
            }
        }
    }
}
