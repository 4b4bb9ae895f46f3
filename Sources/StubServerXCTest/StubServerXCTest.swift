import StubServer
