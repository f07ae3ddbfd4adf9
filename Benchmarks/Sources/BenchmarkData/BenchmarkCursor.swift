/// Walks a data set's shuffled order, round and round: every benchmark of one kind visits the
/// same items in the same order. Each pass over the order moves the values by one, so that an
/// overwrite always stores bytes other than those already there.
///
/// The first pass already moves them: the setup stored `values[item]` under every item, and
/// SQLite leaves a page clean when an update rewrites a row with the bytes it holds, so a
/// baseline rewriting those would commit nothing (no WAL frame) while the vault, whose every
/// box has a fresh nonce, writes a page each time. For the same reason one cursor must serve
/// every sample of a benchmark (a side keeps it, and its `setUp` starts it again): a cursor
/// made anew for each sample would write the same first thousand values again and again, and
/// from the second sample on the baseline would be measuring writes that change nothing.
public struct BenchmarkCursor: Sendable {
    private let order: [Int]
    private var position = 0
    private var pass = 1

    /// A cursor at the start of `order` (a data set's `writeOrder` or `readOrder`).
    public init(order: [Int]) {
        self.order = order
    }

    /// The next item's index, and the index of the value to write to it on this pass.
    public mutating func next() -> (item: Int, value: Int) {
        let item = order[position]
        let value = (item + pass) % order.count
        position += 1
        if position == order.count {
            position = 0
            pass += 1
        }
        return (item, value)
    }
}
