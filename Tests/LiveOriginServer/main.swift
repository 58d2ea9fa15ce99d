// tessera-live-origin: the LL-HLS test origin (`LiveOrigin`) in real time, for the demo, the
// gates and `Scripts/bench.sh live` — a test-support executable, not part of `tessera`.
// Usage and flags: `LiveOriginCommand.usage`.
import Foundation

exit(await LiveOriginCommand.main(Array(CommandLine.arguments.dropFirst())))
