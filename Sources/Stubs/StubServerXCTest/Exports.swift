// What a test reaches with this one import, as the guides' examples use it: the socket server and the in-process
// stubs (each handing on the core's catalog, control, journal and errors) and stubs in another process.
@_exported import StubServer
@_exported import StubServerInProcess
@_exported import class StubServerRemote.RemoteStubs
