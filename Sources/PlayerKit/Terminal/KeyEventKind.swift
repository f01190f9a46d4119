/// Press, autorepeat or release; terminals without the kitty protocol send only presses.
public enum KeyEventKind: Int, Sendable {
    case press = 1, `repeat` = 2, release = 3
}
