import FoundationEssentials
import Glibc
import SposureKit

/// The player's part in job control and window changes, as a stage's
/// ``SignalPolicy``: a resize (SIGWINCH) fits the picture again, Ctrl-Z
/// (SIGTSTP) ends the hold and gives the terminal back before the process
/// stops, `fg` (SIGCONT) sets the terminal up again, and a second Ctrl-C
/// deletes kitty's frame files and gives the terminal back before the
/// forced exit, without waiting on a stalled terminal.
public enum JobControl {
    /// The policy for `player` on `terminal`; `mouse` and `kittyKeys`: what
    /// setting the terminal up again turns on.
    public static func policy(player: Player, terminal: Terminal?, mouse: Bool, kittyKeys: Bool) -> SignalPolicy {
        SignalPolicy(
            other: [SIGWINCH, SIGTSTP, SIGCONT],
            onOther: { signal in
                switch signal {
                case SIGWINCH:
                    player.noteResize()
                case SIGTSTP:
                    // Ctrl-Z: the hold ends now; give the terminal back as it was,
                    // then stop; `fg` sets it up again.
                    player.noteSuspend()
                    terminal?.leave()
                    kill(getpid(), SIGSTOP)
                case SIGCONT:
                    terminal?.enter(mouse: mouse)
                    if kittyKeys { terminal?.pushKittyKeyboard() }
                    player.noteContinue()
                default:
                    break
                }
            },
            beforeForcedExit: {
                KittyFiles.shared.removeAll()
                terminal?.leaveAtOnce()  // never waits on a stalled terminal
            })
    }
}
