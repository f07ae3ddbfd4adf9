import Foundation
import TandemProtocol

/// Makes the DPoP proofs of a load test of bound refreshes (`scripts/bench-server.sh`), with the
/// SDK's own proof code, so the server is measured on the proofs apps send:
///
///     DPoPProofs key KEY_FILE                                   a new P-256 key in KEY_FILE (0600); prints its thumbprint
///     DPoPProofs proofs KEY_FILE URL NONCE COUNT                COUNT proofs of POST URL with NONCE, one per line
///
/// Each proof has its own `jti` and today's `iat`: make them just before the load, which must
/// use them within the server's proof window (300 s).
@main
enum DPoPProofs {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "key" where arguments.count == 2:
                let key = SoftwareDPoPKey()
                let file = URL(fileURLWithPath: arguments[1])
                guard FileManager.default.createFile(
                    atPath: file.path, contents: Data(key.rawRepresentation.base64EncodedString().utf8), attributes: [.posixPermissions: 0o600])
                else { throw Failure("cannot write \(file.path)") }
                print(key.publicKey.thumbprint)
            case "proofs" where arguments.count == 5:
                let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
                guard let raw = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw Failure("\(arguments[1]) is not a key written by `DPoPProofs key`")
                }
                let key = try SoftwareDPoPKey(rawRepresentation: raw)
                guard let url = URL(string: arguments[2]), let count = Int(arguments[4]), count > 0 else {
                    throw Failure("usage: DPoPProofs proofs KEY_FILE URL NONCE COUNT")
                }
                var output = ""
                output.reserveCapacity(count * 600)
                let now = Date()
                for _ in 0..<count {
                    output += try DPoPProof.make(signer: key, method: "POST", url: url, issuedAt: now, nonce: arguments[3])
                    output += "\n"
                }
                FileHandle.standardOutput.write(Data(output.utf8))
            default:
                throw Failure("usage: DPoPProofs key KEY_FILE | DPoPProofs proofs KEY_FILE URL NONCE COUNT")
            }
        } catch {
            FileHandle.standardError.write(Data("DPoPProofs: \(error)\n".utf8))
            exit(1)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
