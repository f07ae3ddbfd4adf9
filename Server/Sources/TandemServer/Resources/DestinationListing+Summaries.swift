import TandemProtocol

extension DestinationListing {
    /// The listing of `destinations`, as `GET /v1/destinations` serves it.
    init(_ destinations: [DestinationSummary]) {
        self.init(destinations: destinations.map { destination in
            Destination(name: destination.name, title: destination.title, entitySets: destination.entitySets.map { set in
                EntitySet(name: set.name, destination: destination.name, count: set.rowCount, updatedAt: set.updatedAt.iso8601)
            })
        })
    }
}
