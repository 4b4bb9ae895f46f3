#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A client hanging up mid-answer must not end the process. The library's sockets already avoid SIGPIPE
// (MSG_NOSIGNAL, SO_NOSIGPIPE); the executable makes the whole process immune, which a library must not do.
signal(SIGPIPE, SIG_IGN)
let code = await StubServerTool.run(Array(CommandLine.arguments.dropFirst()))
exit(code)
