import Foundation

/// A business widget's configuration as the tests use it: which destination and entity set.
struct OrdersConfiguration: Codable, Hashable, Sendable {
    var destination: String
    var entitySet: String
}
