/// Why a URL is not a link this app routes. The link is to be ignored (the app opens on its
/// home screen); none of these is the user's fault, and retrying the same URL fails the same way.
public enum DeepLinkError: Error, Hashable, Sendable {
    /// The URL is longer than ``DeepLinkLimits/maximumURLLength``: not one this app built.
    case urlTooLong(limit: Int)
    /// The URL is not of the form `scheme://host…`.
    case malformedURL
    /// The URL contains a space, a control character, a non-ASCII character or another
    /// character a URL may not hold unencoded.
    case invalidCharacter
    /// The URL belongs to another app: its scheme is `found`, this app's is `expected`.
    case wrongScheme(expected: String, found: String)
    /// This app has no route for the URL's host and path (or it has a user, port or fragment).
    case unknownRoute(String)
    /// A required query parameter is missing.
    case missingParameter(String)
    /// A query parameter is present twice; neither copy is trusted.
    case duplicateParameter(String)
    /// A query parameter this route does not take.
    case unexpectedParameter(String)
    /// A query parameter is longer than the limit for it.
    case oversizedParameter(String, limit: Int)
    /// A `%` is not followed by two hex digits, or the decoded bytes are not UTF-8.
    case invalidPercentEncoding(String)
    /// A parameter decodes to text that still holds a `%`: double encoding, used to slip past checks.
    case doubleEncoding(String)
    /// A parameter holds an encoded `&`, `=`, `?`, `#`, `/` or `\`: a separator in disguise.
    case encodedSeparator(String)
    /// A parameter decodes to a NUL or another control character.
    case controlCharacter(String)
    /// A parameter's value is not allowed, e.g. an unknown widget family or an empty kind.
    case invalidParameterValue(String)
    /// The `config=` parameter is not canonical base64url of a JSON object, is too large, or does
    /// not decode as the configuration type asked for.
    case undecodableConfiguration
}
