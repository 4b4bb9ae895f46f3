#if !canImport(COpenSSL) && canImport(Security) && os(iOS)
    import Foundation
    import Security
    import Security.SecureTransport

    /// A listener's TLS on iOS, with Secure Transport: the identity is imported once from a PKCS #12 file
    /// the package writes (`PKCS12`), into this process's memory only, never the keychain. Secure Transport speaks
    /// TLS 1.2 at most (its sslContext.c: MAXIMUM_STREAM_VERSION TLS_Version_1_2), so TLS 1.3 is offered on Linux only.
    /// Not on macOS: there Secure Transport sizes an ECDSA signature for a keychain key (OSX/libsecurity_ssl/lib/
    /// sslKeychain.c:222-227), and a P-256 key imported into memory only gets a 32-byte buffer.
    ///
    /// Citations are Security-61901's headers (apple-oss-distributions/Security): keychain/headers/SecImportExport.h
    /// (`SecPKCS12Import` :714; `kSecImportExportPassphrase` :654; `kSecImportToMemoryOnly` :660, macOS 15 and
    /// iOS 18; `kSecImportItemIdentity` :687), trust/headers/SecCertificate.h:75 (`SecCertificateCreateWithData`), keychain/headers/SecIdentity.h:54 (`SecIdentityGetTypeID`),
    /// base/SecBase.h:251 (`SecCopyErrorMessageString`), OSX/libsecurity_ssl/lib/SecureTransport.h (each function's
    /// line beside its call, in `SecureTransportSession`), and Modules/Security.{macOS,iOS}.modulemap (the
    /// explicit `SecureTransport` submodule).
    final class SecureTransportContext: TLSServerContext {
        /// The identity, then any intermediate: what `SSLSetCertificate` takes (SecureTransport.h:613-618).
        private let certificates: CFArray
        private let versions: (SSLProtocol, SSLProtocol)
        private let handshake: TLSIdentity.Handshake

        init(_ identity: TLSIdentity) throws(TLSError) {
            guard identity.versions.lowerBound <= .tls12 else {
                throw TLSError("Secure Transport speaks TLS 1.2 at most: TLS 1.3 alone is served on Linux only")
            }
            func version(_ version: TLSVersion) -> SSLProtocol {
                version == .tls11 ? .tlsProtocol11 : .tlsProtocol12
            }
            versions = (version(identity.versions.lowerBound), version(identity.versions.upperBound))
            handshake = identity.handshake
            let chain = try PEMText.decode(identity.certificateChainPEM, label: "CERTIFICATE")
            guard !chain.isEmpty else { throw TLSError("no PEM certificate in the identity") }
            guard let key = try PEMText.decode(identity.privateKeyPEM, label: "PRIVATE KEY").first else {
                throw TLSError("no PKCS #8 private key in the identity")
            }
            var generator = SystemRandomNumberGenerator()
            let password = (0..<4).map { _ in String(generator.next() as UInt64, radix: 36) }.joined()
            let file = try PKCS12(certificates: chain, privateKeyInfo: key, password: password).der()
            let options: [String: Any] = [
                kSecImportExportPassphrase as String: password, kSecImportToMemoryOnly as String: kCFBooleanTrue as Any,
            ]
            var items: CFArray?
            let status = SecPKCS12Import(Data(file) as CFData, options as CFDictionary, &items)
            guard status == errSecSuccess else { throw SecureTransportContext.error(status, "importing the identity") }
            guard let found = (items as? [[String: Any]])?.first?[kSecImportItemIdentity as String],
                CFGetTypeID(found as AnyObject) == SecIdentityGetTypeID()
            else { throw TLSError("importing the identity: SecPKCS12Import gave no identity") }
            var array: [AnyObject] = [found as AnyObject]
            for der in chain.dropFirst() {
                guard let certificate = SecCertificateCreateWithData(nil, Data(der) as CFData) else {
                    throw TLSError("an intermediate certificate does not read")
                }
                array.append(certificate)
            }
            certificates = array as CFArray
        }

        func session(on socket: Socket) throws(TLSError) -> any TLSSession {
            try SecureTransportSession(
                certificates: certificates, versions: versions, socket: socket, handshake: handshake)
        }

        /// `doing`, then Security's words for `status`.
        static func error(_ status: OSStatus, _ doing: String) -> TLSError {
            TLSError("\(doing): \((SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)")")
        }
    }
#endif
