import Foundation

/// Route parameters as the names they stand for.
///
/// The router hands path segments over still percent-encoded; the server's own links encode
/// names that need it (`acme%3Akiosk`), and RFC 3986 §6.2.2.2 makes `sal%65s` the same segment as
/// `sales`, so every parameter is decoded before it is looked up.
enum PathParameter {
    /// The decoded segment; an absent or undecodable one becomes "" (which matches nothing).
    static func decoded(_ segment: String?) -> String {
        segment?.removingPercentEncoding ?? ""
    }
}
