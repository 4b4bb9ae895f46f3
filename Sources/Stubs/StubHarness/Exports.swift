// What a test reaches with `import StubServerTesting` or `import StubServerXCTest`, as the guides' examples use it:
// the transports (`StubTransport`), the socket server and the in-process stubs (each handing on the core's catalog,
// control, journal and errors) and stubs in another process. Written once, here, for both test libraries.
@_exported import StubServer
@_exported import StubServerInProcess

@_exported import class StubServerRemote.RemoteStubs
