import Foundation
import Testing

@testable import TandemBackends

/// Generated documents: every one written with random spacing and escapes parses back to the
/// tree it came from, and no corruption of one crashes the parser or is accepted where
/// Foundation's parser refuses it.
@Suite("Backend JSON properties")
struct BackendJSONPropertyTests {
    /// SplitMix64: a small seeded generator, so every run sees the same documents.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let scalars: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "é", "€", "\u{2028}", "😀", "𝄞", "~"]

    private func randomString(_ generator: inout SeededGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            text.append(Self.scalars.randomElement(using: &generator) ?? "a")
        }
        return String(text)
    }

    private func randomNumber(_ generator: inout SeededGenerator) -> String {
        var text = Bool.random(using: &generator) ? "-" : ""
        text += Bool.random(using: &generator) ? "0" : String(UInt64.random(in: 1...UInt64.max, using: &generator))
        if Bool.random(using: &generator) { text += "." + String(repeating: "0", count: Int.random(in: 0...3, using: &generator)) + String(Int.random(in: 0...999, using: &generator)) }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            text += ["e", "E"].randomElement(using: &generator) ?? "e"
            text += ["", "+", "-"].randomElement(using: &generator) ?? ""
            text += String(Int.random(in: 0...280, using: &generator))
        }
        return text
    }

    private func randomValue(_ generator: inout SeededGenerator, depth: Int) -> BackendJSON {
        switch Int.random(in: 0..<(depth > 4 ? 4 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(text: randomNumber(&generator))
        case 3: return .string(randomString(&generator))
        case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var members: [BackendJSONMember] = []
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                members.append(BackendJSONMember(key: randomString(&generator) + "#\(index)", value: randomValue(&generator, depth: depth + 1)))
            }
            return .object(members)
        }
    }

    private func space(_ generator: inout SeededGenerator) -> String {
        String((0..<Int.random(in: 0...2, using: &generator)).map { _ in [" ", "\n", "\t", "\r"].randomElement(using: &generator) ?? " " })
    }

    private func write(_ string: String, _ generator: inout SeededGenerator) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            let escape = Bool.random(using: &generator)
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += escape ? "\\n" : "\\u000a"
            case "\t": text += escape ? "\\t" : "\\u0009"
            case "/": text += escape ? "\\/" : "/"
            case _ where scalar.value < 0x20: text += "\\u" + String(format: "%04X", scalar.value)
            case _ where escape:
                for unit in String(scalar).utf16 { text += "\\u" + String(format: Bool.random(using: &generator) ? "%04x" : "%04X", unit) }
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    private func write(_ value: BackendJSON, _ generator: inout SeededGenerator) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let string): return write(string, &generator)
        case .array(let elements):
            return "[" + space(&generator) + elements.map { write($0, &generator) + space(&generator) }.joined(separator: "," + space(&generator)) + "]"
        case .object(let members):
            let written = members.map { write($0.key, &generator) + space(&generator) + ":" + space(&generator) + write($0.value, &generator) }
            return "{" + space(&generator) + written.joined(separator: space(&generator) + "," + space(&generator)) + space(&generator) + "}"
        }
    }

    /// Whether `value` holds a number Foundation's parser refuses because it reads numbers as
    /// `Double` (an exponent beyond about ±300), which this parser keeps as text.
    private func exceedsDoubleRange(_ value: BackendJSON) -> Bool {
        switch value {
        case .number(let text):
            guard let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text.count > 300 }
            let exponent = text[text.index(after: marker)...].filter(\.isNumber)
            return exponent.count > 2
        case .array(let elements): return elements.contains(where: exceedsDoubleRange)
        case .object(let members): return members.contains { exceedsDoubleRange($0.value) }
        default: return false
        }
    }

    @Test func generatedDocumentsParseBackToTheirTree() throws {
        var generator = SeededGenerator(state: 20_260_801)
        for _ in 0..<500 {
            let value = randomValue(&generator, depth: 0)
            let text = space(&generator) + write(value, &generator) + space(&generator)
            #expect(try BackendJSON.parse(Array(text.utf8)) == value, "\(text)")
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "\(text)")
        }
    }

    @Test func corruptedDocumentsNeverCrashAndAreNoLaxerThanFoundation() {
        var generator = SeededGenerator(state: 6901)
        let replacements: [UInt8] = Array(#"{}[],:"\\/ 0123456789.eE+-tfnu"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        var accepted = 0
        for _ in 0..<2000 {
            let value = randomValue(&generator, depth: 0)
            var bytes = Array(write(value, &generator).utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = replacements.randomElement(using: &generator) ?? 0
                case 1: bytes.remove(at: position)
                default: bytes.insert(replacements.randomElement(using: &generator) ?? 0, at: position)
                }
            }
            guard let parsed = try? BackendJSON.parse(bytes) else { continue }
            accepted += 1
            guard !exceedsDoubleRange(parsed) else { continue }
            #expect((try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil,
                "accepted what Foundation refuses: \(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(accepted > 0)
    }
}
