// What a user of this product reaches with `import StubServer` alone: the server (this module) and the core's
// catalog, control, journal and errors, listed here.
@_exported import struct StubCore.CatalogError
@_exported import struct StubCore.FixtureProblem
@_exported import struct StubCore.HeaderField
@_exported import struct StubCore.JournalEntry
@_exported import struct StubCore.JournalQuery
@_exported import protocol StubCore.LocalStubControl
@_exported import struct StubCore.Redaction
@_exported import struct StubCore.ReloadReport
@_exported import struct StubCore.Stub
@_exported import struct StubCore.StubCatalog
@_exported import protocol StubCore.StubControl
@_exported import struct StubCore.StubMiss
@_exported import enum StubCore.StubServerError
@_exported import struct StubCore.StubVariant
@_exported import enum StubCore.TLSFailure
