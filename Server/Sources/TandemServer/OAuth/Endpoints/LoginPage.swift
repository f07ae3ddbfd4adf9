/// The HTML of the sign-in form and of the error page shown when a request cannot be redirected.
///
/// Every interpolated value is HTML-escaped; the authorization request travels in hidden fields
/// so the POST can be validated exactly like the GET.
enum LoginPage {
    /// The sign-in form.
    ///
    /// - Parameters:
    ///   - appName: The client's display name.
    ///   - parameters: The authorization request's parameters, echoed as hidden fields.
    ///   - formToken: The anti-forgery token (also set as a cookie).
    ///   - username: A username to prefill after a failed attempt.
    ///   - message: An error to show above the form.
    static func form(appName: String, parameters: [String: String], formToken: String, username: String = "", message: String? = nil) -> String {
        let hidden = hiddenFields(parameters)
        let alert = message.map { #"<p class="error" role="alert">\#(escape($0))</p>"# } ?? ""
        return page(title: "Sign in", body: """
            <h1>Sign in to \(escape(appName))</h1>
            \(alert)
            <form method="post" action="/oauth/authorize">
              \(hidden)
              <input type="hidden" name="csrf_token" value="\(escape(formToken))">
              <label>Username <input name="username" autocomplete="username" required value="\(escape(username))"></label>
              <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
              <button type="submit">Sign in</button>
            </form>
            """)
    }

    /// A page explaining why the request cannot proceed.
    static func error(_ message: String) -> String {
        page(title: "Cannot sign in", body: "<h1>Cannot sign in</h1>\n<p>\(escape(message))</p>")
    }

    /// The authorization request's parameters as hidden fields.
    static func hiddenFields(_ parameters: [String: String]) -> String {
        AuthorizationRequest.parameterNames.compactMap { name in
            parameters[name].map { #"<input type="hidden" name="\#(name)" value="\#(escape($0))">"# }
        }.joined(separator: "\n      ")
    }

    /// A whole page around `body`.
    static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · Tandem</title>
        <style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.75rem 0}input:not([type=hidden]){display:block;width:100%;padding:.4rem}.error{color:#b00020}button{padding:.5rem 1rem}</style>
        </head>
        <body>
        \(body)
        </body>
        </html>
        """
    }

    /// Escapes `&`, `<`, `>`, `"` and `'`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
