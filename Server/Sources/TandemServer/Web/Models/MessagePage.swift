/// A page that only explains: why a request cannot proceed, or what to do next.
struct MessagePage: Sendable {
    let heading: String
    let message: String
}
