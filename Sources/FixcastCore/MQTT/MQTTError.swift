import FixcastText

/// Why the broker link is not up, as a cause code branches on (the message is for people).
public enum MQTTFailureCause: String, Sendable, Hashable {
    /// The broker's host name did not resolve.
    case dns
    /// Nothing accepted the TCP connection (refused, unreachable, timed out).
    case tcp
    /// The TLS handshake failed (certificate, CA file, host name).
    case tls
    /// The broker refused the user name or password (CONNACK 4) or this client (CONNACK 5).
    case auth
    /// The broker answered with something else (a refused protocol version, a malformed packet).
    case protocolError = "protocol"
    /// The connection was lost after it was up.
    case lost
    /// The TCP connection was made but no answer to the MQTT handshake (CONNACK) came in time: a
    /// port where something other than an MQTT broker listens, or a broker that hangs.
    case noAnswer = "no-answer"
    /// The TCP connection was made and then closed when the plain MQTT handshake began: what a TLS
    /// listener does with plain MQTT (it resets the connection without a word).
    case closedAtHandshake = "closed"
    /// A setting the link cannot use (a CA file that is missing or not a regular file, a string
    /// MQTT cannot carry); the detail names the key.
    case setting
    /// libmosquitto could not be loaded (it is opened when the first client is made, not linked); the
    /// detail is `MissingLibrary.clause`.
    case library

    /// A cause that does not pass by itself while the network comes and goes: a setting, the broker's
    /// login or certificate, something else on the port (`ComponentHealth`'s `asksForAPerson`).
    public var asksForAPerson: Bool {
        switch self {
        case .dns, .tcp, .lost: return false
        case .tls, .auth, .protocolError, .noAnswer, .closedAtHandshake, .setting, .library: return true
        }
    }
}

/// A broker problem in one sentence naming `mqtt:` and what to do. Readings go on without it:
/// they wait in the outbox. The password is never part of any message.
public struct MQTTError: UserFacingError, Hashable {
    public var cause: MQTTFailureCause
    /// `host:port` of the broker.
    public var broker: String
    /// A short detail from the library (never user input that could hold a secret).
    public var detail: String

    public init(cause: MQTTFailureCause, broker: String, detail: String = "") {
        self.cause = cause
        self.broker = broker
        self.detail = detail
    }

    public var component: Component { .mqtt }

    public var message: String {
        // A library's error string is outside text: one line, no control, at most 200 characters.
        var cleaned = TerminalText.name(detail, maxCharacters: 200)
        while cleaned.hasSuffix(".") || cleaned.hasSuffix(" ") { cleaned.removeLast() }
        let d = cleaned.isEmpty ? "" : " (\(cleaned))"
        switch cause {
        case .dns:
            return "mqtt: the broker's host name in \(broker) does not resolve\(d); check mqtt.host."
        case .tcp:
            return
                "mqtt: nothing accepts connections at \(broker)\(d); start the broker or check mqtt.host and mqtt.port; readings wait in the outbox."
        case .tls:
            return
                "mqtt: the TLS handshake with \(broker) failed\(d); check mqtt.ca_file and that the certificate names the host."
        case .auth:
            return "mqtt: the broker at \(broker) refused the login\(d); check mqtt.username and FIXCAST_MQTT_PASSWORD."
        case .protocolError:
            return "mqtt: the broker at \(broker) did not speak MQTT as expected\(d); check mqtt.port and mqtt.tls."
        case .lost:
            return
                "mqtt: the connection to \(broker) was lost\(d); fixcast reconnects on its own and readings wait in the outbox."
        case .noAnswer:
            return
                "mqtt: \(broker) accepts connections but did not answer the MQTT handshake\(d); check that mqtt.port is the broker's MQTT port and mqtt.tls matches it; readings wait in the outbox."
        case .closedAtHandshake:
            return
                "mqtt: \(broker) accepts connections but closed this one when the MQTT handshake began\(d); if it is a TLS listener (port 8883 usually is) set mqtt.tls = true, else check mqtt.port; readings wait in the outbox."
        case .library:
            return "mqtt: \(cleaned); readings wait in the outbox."
        case .setting:
            return
                "mqtt: cannot connect to \(broker) with these settings: \(cleaned.isEmpty ? "a value is not usable" : cleaned); correct it in the config file or its FIXCAST_MQTT_ variable."
        }
    }
}
