import Glibc

/// Why a connection closed: logged, and counted when it is a stall.
enum CloseReason: Sendable, Equatable, CustomStringConvertible {
    /// The client closed its end, and everything read was answered.
    case peerClosed
    /// The server closed it (shutdown), after answering what was read.
    case closedByServer
    /// Reading the socket failed (the errno).
    case readFailed(Int32)
    /// Writing the socket failed (the errno): the peer is gone.
    case writeFailed(Int32)
    /// Unsent output made no progress for this many seconds (`outputStallSeconds`).
    case stalled(seconds: Double)
    /// Closed at once, dropping unsent output (shutdown past its deadline, a broken rule).
    case aborted(String)

    var description: String {
        switch self {
        case .peerClosed: "peer closed"
        case .closedByServer: "closed by the server"
        case .readFailed(let error): "read failed: \(String(cString: strerror(error)))"
        case .writeFailed(let error): "write failed: \(String(cString: strerror(error)))"
        case .stalled(let seconds): "no output progress for \(seconds) s"
        case .aborted(let reason): reason
        }
    }
}
