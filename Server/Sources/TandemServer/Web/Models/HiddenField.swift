/// A hidden form field a page echoes back, such as one parameter of an authorization request.
struct HiddenField: Sendable {
    let name: String
    let value: String
}
