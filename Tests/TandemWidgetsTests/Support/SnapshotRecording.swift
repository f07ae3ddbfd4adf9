import Foundation
import SnapshotTesting

/// Snapshot tests compare against the committed references and fail when one is missing.
/// Set `SNAPSHOT_TESTING_RECORD=missing` (or `all`) to record references on purpose.
enum SnapshotRecording {
    static var mode: SnapshotTestingConfiguration.Record? {
        ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"] == nil ? .never : nil
    }
}
