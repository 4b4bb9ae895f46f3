// A test that controls stubs in another process needs no third import.
@_exported import class StubServerRemote.RemoteStubs
