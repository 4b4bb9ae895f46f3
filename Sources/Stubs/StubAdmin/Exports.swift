// What a user of either transport reaches without importing the core: the catalog and its problems, the control API
// both share (`StubControl`, and `LocalStubControl` over a `StubRuntime`), the journal and its queries, and their
// errors. Both transports mount this module (`@_exported import StubAdmin`), so the list is written once, here.

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
@_exported import class StubCore.StubRuntime
@_exported import enum StubCore.StubServerError
@_exported import struct StubCore.StubVariant
