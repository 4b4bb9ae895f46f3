import Foundation
import StubTestSupport

/// A live chart screen written with care, over a WebSocket: it subscribes and shows the first chart update, or
/// ends on a readable failure or an offer to try again; never on a spinner.
///
/// - Messages come whole from `FeedSocket` (fragments joined, pings answered), text or binary alike.
/// - A message it cannot read, or of a type it does not know, is skipped; a `chart` without a whole-number rank or
///   an album fails it ("garbled").
/// - It asks for a pong and subscribes at once: it does not wait for a greeting that may never come.
/// - A close 1008 (policy) fails it; any other close, a dropped connection, or no chart within `patience`, offers
///   to try again.
@MainActor
final class LiveChartViewModel {
    enum Screen: Equatable, Sendable {
        case connecting
        case chart([String])
        case failed(String)
        case retryOffered(String)

        var isFinal: Bool { self != .connecting }
    }

    private(set) var screen = Screen.connecting {
        didSet { screens.append(screen) }
    }
    private(set) var screens: [Screen] = []

    private struct Kind: Decodable {
        var type: String?
    }

    private struct Chart: Decodable {
        var rank: Int
        var album: String
        var artist: String?
    }

    /// Opens the feed on `port` and shows the first chart.
    func open(port: Int, patience: Duration = .seconds(30)) async {
        do {
            let socket = try await FeedSocket(port: port)
            defer { Task { await socket.close() } }
            try await socket.send(#"{"type": "ping"}"#)
            try await socket.send(#"{"type": "subscribe"}"#)
            let deadline = ContinuousClock.now + patience
            while ContinuousClock.now < deadline {
                switch try await socket.next(before: deadline) {
                case .message(let bytes):
                    guard (try? JSONDecoder().decode(Kind.self, from: Data(bytes)))?.type == "chart" else { continue }
                    guard let chart = try? JSONDecoder().decode(Chart.self, from: Data(bytes)) else {
                        screen = .failed("The chart arrived garbled.")
                        return
                    }
                    let album = chart.album.isEmpty ? "(untitled)" : chart.album
                    screen = .chart(["\(chart.rank). \(album)" + (chart.artist.map { ", \($0)" } ?? "")])
                    return
                case .closed(let code):
                    screen =
                        code == 1008
                        ? .failed("The live chart is not available to you.")
                        : .retryOffered("The live chart went away. Try again.")
                    return
                case .timedOut:
                    break
                }
            }
            screen = .retryOffered("No chart came. Try again.")
        } catch {
            screen = .retryOffered("The live chart could not be reached. Try again.")
        }
    }
}

/// A WebSocket to MockData's live feed for the chart screens, over `RawWebSocket` (URLSession's WebSocket task is
/// not available with Linux's libcurl): whole messages, fragments joined, pings answered.
actor FeedSocket {
    enum Next: Equatable {
        case message([UInt8])
        /// The server's close frame's code, or nil when the connection ended without one.
        case closed(UInt16?)
        case timedOut
    }

    private let socket: RawWebSocket

    init(port: Int) async throws {
        socket = try await RawWebSocket(port: port, path: "/live", protocols: ["catalog.v1"])
        guard await socket.handshake.status == 101 else { throw URLError(.badServerResponse) }
    }

    func send(_ text: String) async throws {
        try await socket.send(text: text)
    }

    /// The next whole message, or how the socket ended, or `timedOut` once `deadline` passes (the socket is then
    /// of no more use: a frame may have been cut off mid-read).
    func next(before deadline: ContinuousClock.Instant) async throws -> Next {
        try await withThrowingTaskGroup(of: Next.self) { group in
            group.addTask { await self.nextMessage() }
            group.addTask {
                try await Task.sleep(until: deadline)
                return .timedOut
            }
            defer { group.cancelAll() }
            return try await group.next() ?? .timedOut
        }
    }

    private func nextMessage() async -> Next {
        var message: [UInt8] = []
        while true {
            guard let frame = try? await socket.readFrame() else { return .closed(nil) }
            switch frame.opcode {
            case 0, 1, 2:
                message += frame.payload
                if frame.fin { return .message(message) }
            case 8:
                return .closed(frame.closeCode)
            case 9:
                try? await socket.send(RawWebSocket.frame(opcode: 0xA, frame.payload))
            default:
                break
            }
        }
    }

    func close() async {
        try? await socket.send(RawWebSocket.frame(opcode: 8, [0x03, 0xE8]))
        await socket.client.hangUp()
    }
}
