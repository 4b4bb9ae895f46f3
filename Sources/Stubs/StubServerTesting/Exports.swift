// What a test reaches with `import StubServerTesting` alone: the handle a test body gets and the transports (from the
// harness both test libraries share), the socket server and the in-process stubs (each with the core's catalog,
// control, journal and errors), and stubs in another process.

@_exported import StubServer
@_exported import StubServerInProcess

@_exported import struct StubHarness.StubTransport
@_exported import class StubHarness.TestStubs
@_exported import enum StubHarness.TestStubsError
@_exported import class StubServerRemote.RemoteStubs
