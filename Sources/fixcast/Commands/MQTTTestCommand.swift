import FixcastAdapters
import FixcastApp
import FixcastCore
import FoundationEssentials

/// `fixcast mqtt test`: connect, publish a retained `online`, say what worked (exit 0) or which
/// step failed (exit 1). Works whether or not `mqtt.enabled` is set, so a setup can be tried first.
struct MQTTTestCommand {
    let context: CommandContext
    let options: MQTTOptions

    func run() async -> Int32 {
        let settings = context.settings.mqtt
        let deviceID = DeviceID.resolve(configured: settings.deviceID, hostName: HostName.current())
        switch await MQTTProbe.run(settings: settings, deviceID: deviceID) {
        case .success(let sentence):
            Console.out(sentence + "\n")
            return ExitCode.success
        case .failure(let error):
            Console.err(error.message + "\n")
            return ExitCode.failure
        }
    }
}
