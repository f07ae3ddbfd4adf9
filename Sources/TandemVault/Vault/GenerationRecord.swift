import Foundation

/// The vault's identity and generation as last seen by this device, mirrored in the host's
/// `SecretStorage` for rollback detection.
///
/// The vault file holds the same counter sealed under its data key. Every rewrap, and the
/// first change after each unlock, raises it: first inside the vault's transaction, then
/// here. A file whose counter is below this record is an earlier copy; one above it is the
/// trace of a crash between the two writes, and is accepted and recorded.
struct GenerationRecord: Sendable, Equatable {
    var storeID: Data
    var generation: UInt64

    init(storeID: Data, generation: UInt64) {
        self.storeID = storeID
        self.generation = generation
    }

    init?(serialized data: Data) {
        guard data.count == 16 + 8, let generation = UInt64(bigEndianBytes: Data(data.suffix(8))) else { return nil }
        storeID = Data(data.prefix(16))
        self.generation = generation
    }

    var serialized: Data { storeID + generation.bigEndianBytes }
}
