/// Usage texts of `stub-server` and its commands.
enum Help {
    static let overview = """
        Usage: stub-server [COMMAND] [OPTIONS]

        Replays recorded HTTP fixtures from a MockData folder over real HTTP.

        Commands:
          serve      Serve a fixtures folder (the default command)
          validate   Check a fixtures folder and list every problem
          routes     Print the route table of a fixtures folder
          mutations  List the hostile versions (mutants) of a stub's answer, with their IDs
          sweep      Run a command against every mutant of a stub's answer; report what it failed, crashed or hung on
          import     Write fixtures from an OpenAPI document (import openapi) or a HAR capture (import har)
          coverage   Report which variants, mutants and statuses a test run served, and gate on it
          trust      Print the local certificate authority of 'serve --https' and how to trust it
          help       Show help for a command

        Run 'stub-server COMMAND --help' for a command's options.
        """

    static let serve = """
        Usage: stub-server serve [--fixtures DIR] [--host HOST] [--port N] [--variant NAME] [--watch]
                                 [--ready-file PATH] [--chaos RATE] [--seed N] [--max-connections N] [--no-contracts]
                                 [--https [--authority DIR] [--certificate-host NAME]... [--tls-failure ID]
                                          [--http-port N]]
               stub-server serve --file FILE [--host HOST] [--port N]

        Serves the stubs in DIR until interrupted (SIGINT or SIGTERM).

        Options:
          --fixtures DIR   Fixtures folder (default: MockData)
          --host HOST      Address to listen on (default: 127.0.0.1; other addresses only when asked)
          --port N         Port, 0 for any free port (default: 8080)
          --variant NAME   Server-wide variant answered by every stub that has it (default: good)
          --file FILE      Answer every GET with FILE instead of serving a folder
          --watch          Reload DIR when a file in it changes; a broken edit keeps the last good catalog
          --ready-file PATH  Write the base URL to PATH (atomically) once the server accepts; removed on exit
          --chaos RATE     Replace this share (0 to 1) of stubbed answers with a drop, reset, truncate or malformed
          --seed N         Seed of --chaos and of variants' "faults": the same seed, the same outcomes in order
          --max-connections N  Answer 503 past N open connections (default: what the open-file limit allows,
                           raised to its hard limit at start, less a margin for files)
          --no-contracts   Do not check requests to stubs with an "openapi" key against their operation (checked
                           by default: each problem is logged under the request, the answer is unchanged)
          --https          Serve HTTPS (TLS 1.2 and 1.3) instead of HTTP, with a certificate for localhost,
                           127.0.0.1 and ::1 signed by this machine's local authority (made on first use;
                           'stub-server trust' prints how to trust it)
          --authority DIR  The local authority's folder (default: $STUB_SERVER_AUTHORITY, else the user's)
          --certificate-host NAME  Also name NAME (a host or an address) in the certificate; repeatable
          --tls-failure ID  Fail every connection's TLS this way: expired, not-yet-valid, wrong-host, self-signed,
                           unknown-authority, other-key, old-protocol, handshake-reset, handshake-stall
          --http-port N    Also serve plain HTTP on port N (0: a free one) beside HTTPS: the same stubs,
                           choices and journal
          -h, --help       Show this help

        Choose variants per request with the X-Stub-Variant header, or at run time through /__stub/
        (open it in a browser for the control page).
        """

    static let trust = """
        Usage: stub-server trust [--authority DIR] [--simulator] [--remove]

        Makes the local certificate authority that signs the certificates of 'serve --https' when there is none
        (its key readable by you alone), then prints its certificate's file and the commands that make an iOS
        simulator, macOS, Linux and curl trust it, and the pin of the key every server's certificate has.

        Options:
          --authority DIR  The authority's folder (default: $STUB_SERVER_AUTHORITY, else the user's)
          --simulator      Also run the simulator's command (xcrun simctl keychain booted add-root-cert)
          --remove         Print the commands that stop trusting it instead (with --simulator: reset the booted
                           simulator's keychain, which removes every certificate added to it)
          -h, --help       Show this help
        """

    static let validate = """
        Usage: stub-server validate DIR [--openapi SPEC]

        Checks every stubs.json and body file under DIR, printing each problem with its file and key path.
        Then checks the answers of every stub that stands for an OpenAPI operation (its "openapi" key, or, with
        --openapi, the operation of SPEC with its method and path) against that operation's response schema:
        each problem with file, stub, variant and the key path in the body. Generated variants are skipped.
        Exits 0 when DIR is clean, 1 when it has problems.
        """

    static let importOpenAPI = """
        Usage: stub-server import openapi SPEC [--fixtures DIR] [--api NAME]
               stub-server import har FILE ...   (see stub-server import har --help)

        Writes one stub per operation of the OpenAPI 3.0 or 3.1 document SPEC (YAML or JSON) into DIR/NAME
        (default: MockData/ and the document's file name): good from the 2xx answer's example, or made from its
        schema; a variant per other documented example; generated bad and nil. Each stub remembers its operation,
        so 'stub-server validate DIR' checks its answers against SPEC. A document with a problem writes nothing.

        Options:
          --fixtures DIR   Fixtures folder (default: MockData)
          --api NAME       API folder to create in DIR (default: SPEC's file name without its extension)
        """

    static let mutations = """
        Usage: stub-server mutations DIR --stub NAME [--variant V] [--json]
               stub-server mutations --tls [--json]

        Lists the mutants of stub NAME's variant V (good by default): hostile versions of its answer (the whole
        answer, each JSON value or XML element), each with an ID to send as X-Stub-Mutation (or choose for the
        stub) and what it does, one per line. With --json, an
        array of objects with "id" and "description". Exits 1 when DIR does not load or has no such stub or variant.

        With --tls, lists the TLS failures a server can present instead of its certificate or handshake, each with
        the ID serve --https --tls-failure and sweep --tls take.
        """

    static let sweep = """
        Usage: stub-server sweep [--fixtures DIR] --stub NAME [--variant V] [--timeout SECONDS] [--jobs N]
                                 [--report FILE] -- COMMAND [ARGS...]
               stub-server sweep --tls [--fixtures DIR] [--authority DIR] [--timeout SECONDS] [--report FILE]
                                 -- COMMAND [ARGS...]

        Serves DIR on a free loopback port and runs COMMAND (found in PATH) once on stub NAME's unmutated
        variant V, which must pass (exit 0), then once per mutant of it with that mutant chosen for the stub.
        Each run has STUB_SERVER_URL (the server's base URL) and STUB_MUTATION (the mutant's ID) in its
        environment, leads a process group of its own and ends passed (exit 0), failed (another exit status),
        crashed (a signal) or hung (still running after the timeout, then killed with its group). Prints a line
        per mutant and a summary.

        With --tls instead of a stub, COMMAND runs against an HTTPS server of DIR, which must pass, then once
        per TLS failure (stub-server mutations --tls) against a server of its own that presents it; each run
        also has STUB_SERVER_AUTHORITY_FILE, the authority's certificate to trust, and STUB_MUTATION is the
        failure's ID.

        Options:
          --fixtures DIR     Fixtures folder (default: MockData)
          --stub NAME        The stub whose answer is mutated
          --tls              Sweep the TLS failures instead of a stub's mutants
          --authority DIR    With --tls: the local authority's folder (default: $STUB_SERVER_AUTHORITY, else the
                             user's)
          --variant V        Its variant (default: good)
          --timeout SECONDS  How long one run may take (default: 10)
          --jobs N           Runs at once, each against a server of its own on its own port (default: 1; more
                             for a command that shares nothing between runs: the runs' waits overlap)
          --report FILE      Write a JSON report: stub, variant, command, baseline, results (mutation, outcome,
                             exitStatus or signal, seconds, the last lines of output) and counts per outcome

        Exits 0 when every mutant passed, 1 when one did not (or DIR, NAME or V is missing), 64 when the command
        fails on the unmutated answer or cannot be started.
        """

    static let routes = """
        Usage: stub-server routes DIR

        Prints the route table of DIR: method, path and conditions, stub, variants.
        """
}
