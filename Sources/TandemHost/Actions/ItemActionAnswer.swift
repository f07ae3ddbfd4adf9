import TandemProtocol

/// What the server answered to one action request (`POST …/actions/{action}`), sorted by what
/// the host does next.
public enum ItemActionAnswer: Sendable, Equatable {
    /// `200`: executed (or, with the same idempotency key, executed before): the item's new state.
    case done(ItemActionResultDocument)
    /// `412`: the item changed after the widget showed it; nothing was done.
    case conflict
    /// `401 insufficient_user_authentication`: the amount needs the user's step-up proof.
    case stepUpRequired
    /// A final refusal (`400`, `403`, `404`, `409`, `422`): `status` and the server's error code.
    case refused(status: Int, code: String?)
    /// Not now (`429`, `5xx`, no answer): try again in a later run with the same idempotency key.
    case retryLater(String)
}
