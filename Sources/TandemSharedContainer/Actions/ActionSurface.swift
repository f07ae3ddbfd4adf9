import TandemProtocol

/// Where the user asked for an action (`widget`, `control`, `shortcut`, `app`): analytics count
/// actions by it, and the host names it to the server in `ItemActionRules.originHeader`. One
/// list, TandemProtocol's, so the server reads what the SDK writes.
public typealias ActionSurface = ItemActionRules.Origin
