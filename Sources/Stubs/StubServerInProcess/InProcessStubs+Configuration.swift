public import Foundation
import StubCore

extension InProcessStubs {
    /// What an in-process server accepts and what it starts with; the fields mean what `StubServer.Configuration`'s
    /// of the same names mean (an in-process server has no address, connections or header limit).
    public struct Configuration: Sendable {
        /// The server-wide variant at start, nil for none (`good` unless a stub says otherwise).
        public var variant: String?
        /// Most bytes of a request body (from `httpBody` or `httpBodyStream`); beyond that the answer is 413.
        public var maxBodyBytes: Int
        /// How many recent requests the journal keeps.
        public var journalCapacity: Int
        /// Headers and query parameters whose values never reach the journal; secrets by default.
        public var redaction: Redaction
        /// Seeds the draws of variants' `faults` and of `chaos`; nil picks one at random (`seed` says which).
        public var seed: UInt64?
        /// The chance, 0...1, that any answer a stub gives is replaced by a fault: drop, reset, truncate or
        /// malformed.
        public var chaos: Double
        /// Called after every `reload()`.
        public var onReload: (@Sendable (ReloadReport) -> Void)?
        /// The folder every answer is recorded in for the coverage report (`stub-server coverage`): one JSON line
        /// each, with the test that was running. Nil: `STUB_COVERAGE_DIR`'s, when set; else nothing is recorded.
        public var coverage: URL?
        /// How every `https` request's TLS fails, as the error URLSession raises for it; nil: none. No request
        /// reaches the stubs (or the journal), as none gets through a failed handshake. The HTTPS guide lists each
        /// failure's `URLError`; `.otherKey` needs a real handshake (a pinning delegate checks the key), so in
        /// process it fails every request with `.unsupportedURL` saying so.
        public var tlsFailure: TLSFailure?

        public init(
            variant: String? = nil, maxBodyBytes: Int = 1 << 20, journalCapacity: Int = 1_000,
            redaction: Redaction = Redaction(), seed: UInt64? = nil, chaos: Double = 0,
            onReload: (@Sendable (ReloadReport) -> Void)? = nil, coverage: URL? = nil, tlsFailure: TLSFailure? = nil
        ) {
            self.tlsFailure = tlsFailure
            self.coverage = coverage
            self.variant = variant
            self.maxBodyBytes = maxBodyBytes
            self.journalCapacity = journalCapacity
            self.redaction = redaction
            self.seed = seed
            self.chaos = chaos
            self.onReload = onReload
        }
    }
}
