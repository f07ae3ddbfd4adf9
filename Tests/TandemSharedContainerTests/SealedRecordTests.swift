import Crypto
import Foundation
import TandemPlatform
import Testing

@testable import TandemSharedContainer

@Suite("Sealed records")
struct SealedRecordTests {
    let home = TemporaryContainer()
    let share: AuxiliaryShare
    let key: ContainerKey
    let plaintext = Data("{\"access_token\":\"widget-secret-token-123\"}".utf8)

    init() throws {
        share = try AuxiliaryShare.random()
        key = ContainerKey(share: share, purpose: .grant)
    }

    @Test func aSealedRecordReadsBackInAnotherInstanceAndMissingIsNil() throws {
        #expect(try home.open().sealed.read(kind: "grant", from: "grant", key: key) == nil)
        try home.open().sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        #expect(try home.open().sealed.read(kind: "grant", from: "grant", key: key) == plaintext)
    }

    @Test func thePlaintextNeverReachesTheDisk() throws {
        let container = try home.open()
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        let bytes = try Data(contentsOf: container.url("grant"))
        #expect(bytes.range(of: Data("widget-secret-token-123".utf8)) == nil)
        #expect(bytes.range(of: key.symmetricKey.withUnsafeBytes { Data($0) }) == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: container.url("grant").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func anotherKeyOrPurposeDoesNotOpenIt() throws {
        let container = try home.open()
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        let otherShare = ContainerKey(share: try AuxiliaryShare.random(), purpose: .grant)
        #expect(throws: SharedContainerError.undecryptable(path: "grant")) { try container.sealed.read(kind: "grant", from: "grant", key: otherShare) }
        try container.sealed.write(plaintext, kind: "snapshot", to: "snapshots/a.snapshot", key: key)
        let sameShareOtherPurpose = ContainerKey(share: share, purpose: .snapshots)
        #expect(throws: SharedContainerError.undecryptable(path: "snapshots/a.snapshot")) {
            try container.sealed.read(kind: "snapshot", from: "snapshots/a.snapshot", key: sameShareOtherPurpose)
        }
    }

    @Test func aTamperedMovedOrRelabelledRecordDoesNotOpen() throws {
        let container = try home.open()
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        let box = try SealedRecord.parse(Data(contentsOf: container.url("grant")), kind: "grant", path: "grant").box
        for index in [0, 12, box.count / 2, box.count - 1] {
            var tampered = box
            tampered[index] ^= 0x20
            try SealedRecord(kind: "grant", box: tampered).serialized().write(to: container.url("grant"))
            #expect(throws: SharedContainerError.undecryptable(path: "grant")) { try container.sealed.read(kind: "grant", from: "grant", key: key) }
        }
        try SealedRecord(kind: "grant", box: box.prefix(20)).serialized().write(to: container.url("grant"))
        #expect(throws: SharedContainerError.undecryptable(path: "grant")) { try container.sealed.read(kind: "grant", from: "grant", key: key) }
        // The same box under another path or another kind: the associated data no longer matches.
        try SealedRecord(kind: "grant", box: box).serialized().write(to: container.url("events/grant"))
        #expect(throws: SharedContainerError.undecryptable(path: "events/grant")) { try container.sealed.read(kind: "grant", from: "events/grant", key: key) }
        try SealedRecord(kind: "token", box: box).serialized().write(to: container.url("grant"))
        #expect(throws: SharedContainerError.undecryptable(path: "grant")) { try container.sealed.read(kind: "token", from: "grant", key: key) }
    }

    @Test func aRecordInTheFirstFormatStillReadsAndABoxMovedBetweenFormatsDoesNot() throws {
        let container = try home.open()
        // Format 1: the JSON envelope around the box in base64, the box bound to "v1".
        let firstFormat = try AES.GCM.seal(plaintext, using: key.symmetricKey, authenticating: Data("tandem.sealed\u{0}v1\u{0}grant\u{0}grant".utf8))
        let firstBox = try #require(firstFormat.combined)
        try SharedRecord<Data>.encode(firstBox, kind: "grant").write(to: container.url("grant"))
        #expect(try container.sealed.read(kind: "grant", from: "grant", key: key) == plaintext)
        // Its box behind today's header, and today's box in the old envelope: neither opens.
        try SealedRecord(kind: "grant", box: firstBox).serialized().write(to: container.url("grant"))
        #expect(throws: SharedContainerError.undecryptable(path: "grant")) { try container.sealed.read(kind: "grant", from: "grant", key: key) }
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        let box = try SealedRecord.parse(Data(contentsOf: container.url("grant")), kind: "grant", path: "grant").box
        try SharedRecord<Data>.encode(box, kind: "grant").write(to: container.url("grant"))
        #expect(throws: SharedContainerError.undecryptable(path: "grant")) { try container.sealed.read(kind: "grant", from: "grant", key: key) }
    }

    @Test func aSealedRecordIsTheHeaderAndTheBoxWithNoBase64() throws {
        let container = try home.open()
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        let bytes = try Data(contentsOf: container.url("grant"))
        #expect(bytes.starts(with: Data("TNDS".utf8) + [2, 5] + Data("grant".utf8)))
        // Header, nonce (12), ciphertext (as long as the plaintext), tag (16).
        #expect(bytes.count == 4 + 2 + 5 + 12 + plaintext.count + 16)
    }

    /// Headers that are not sound, and what reading them throws.
    static let malformedHeaders: [(bytes: [UInt8], error: SharedContainerError)] = {
        let magic: [UInt8] = Array("TNDS".utf8)
        let grant: [UInt8] = Array("grant".utf8)
        let box = [UInt8](repeating: 1, count: 40)
        func corrupt(_ reason: String) -> SharedContainerError { .corrupt(path: "grant", reason: reason) }
        var cases: [(bytes: [UInt8], error: SharedContainerError)] = []
        cases.append((magic, corrupt("not a Tandem shared record")))
        cases.append((magic + [2, 0] + box, corrupt("the header names no kind")))
        cases.append((magic + [2, 9] + Array("gra".utf8), corrupt("the header is cut short")))
        cases.append((magic + [2, 2, 0xC3, 0x28] + box, corrupt("the kind is not UTF-8")))
        cases.append((magic + [1, 5] + grant + box, corrupt("a binary header of version 1")))
        cases.append((magic + [3, 5] + grant + box, .unsupportedVersion(path: "grant", version: 3)))
        cases.append((Array("TNDX".utf8) + [2, 5] + grant + box, corrupt("not a Tandem shared record")))
        return cases
    }()

    @Test(arguments: 0..<malformedHeaders.count)
    func aMalformedHeaderIsATypedError(index: Int) throws {
        let container = try home.open()
        let (bytes, expected) = Self.malformedHeaders[index]
        try Data(bytes).write(to: container.url("grant"))
        #expect(throws: expected) { try container.sealed.read(kind: "grant", from: "grant", key: key) }
    }

    @Test func aHeaderIsParsedWhereverItsBytesStart() throws {
        let record = try SealedRecord(kind: "grant", box: Data(repeating: 7, count: 30)).serialized()
        let buffer = Data("xyz".utf8) + record
        let parsed = try SealedRecord.parse(buffer[3...], kind: "grant", path: "grant")
        #expect(parsed.kind == "grant")
        #expect(parsed.version == SealedRecord.currentVersion)
        #expect(parsed.box == Data(repeating: 7, count: 30))
    }

    @Test func aReaderKeepingTheSealedBytesOpensTheRecordOnlyWhenItWasReplaced() throws {
        let container = try home.open()
        guard case .missing = try container.sealed.read(kind: "grant", from: "grant", key: key, ifChangedFrom: nil) else {
            Issue.record("a missing record was not reported missing")
            return
        }
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        guard case .opened(let opened, let sealed) = try container.sealed.read(kind: "grant", from: "grant", key: key, ifChangedFrom: nil) else {
            Issue.record("the record was not opened")
            return
        }
        #expect(opened == plaintext)
        guard case .unchanged = try container.sealed.read(kind: "grant", from: "grant", key: key, ifChangedFrom: sealed) else {
            Issue.record("an unchanged record was opened again")
            return
        }
        // The same plaintext written again is another write (a fresh nonce): it is opened again.
        try home.open().sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        guard case .opened(let again, let resealed) = try container.sealed.read(kind: "grant", from: "grant", key: key, ifChangedFrom: sealed) else {
            Issue.record("a rewritten record was not opened")
            return
        }
        #expect(again == plaintext)
        #expect(resealed != sealed)
        // A tampered file is refused, whatever the reader kept.
        var box = try SealedRecord.parse(Data(contentsOf: container.url("grant")), kind: "grant", path: "grant").box
        box[box.count / 2] ^= 0x01
        try SealedRecord(kind: "grant", box: box).serialized().write(to: container.url("grant"))
        #expect(throws: SharedContainerError.undecryptable(path: "grant")) {
            try container.sealed.read(kind: "grant", from: "grant", key: key, ifChangedFrom: resealed)
        }
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedFileIsATypedError(damage: DamagedFile) throws {
        let container = try home.open()
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        let original = try Data(contentsOf: container.url("grant"))
        try damage.bytes(replacing: original).write(to: container.url("grant"))
        #expect(throws: damage.expectedError(path: "grant", kind: "grant", sealed: true)) { try container.sealed.read(kind: "grant", from: "grant", key: key) }
    }

    @Test func removeRecordRemovesAndMissingIsFine() throws {
        let container = try home.open()
        try container.sealed.write(plaintext, kind: "grant", to: "grant", key: key)
        try container.sealed.remove(at: "grant")
        #expect(try container.sealed.read(kind: "grant", from: "grant", key: key) == nil)
        try container.sealed.remove(at: "grant")
    }

    @Test func pathsOutsideTheContainerAreRefused() throws {
        let container = try home.open()
        for path in ["", "/etc/passwd", "../grant", "snapshots/../grant", "a//b", "snapshots/", ".grant"] {
            #expect(throws: SharedContainerError.invalidName(path)) { try container.sealed.write(plaintext, kind: "grant", to: path, key: key) }
            #expect(throws: SharedContainerError.invalidName(path)) { try container.sealed.read(kind: "grant", from: path, key: key) }
            #expect(throws: SharedContainerError.invalidName(path)) { try container.sealed.remove(at: path) }
        }
    }
}
