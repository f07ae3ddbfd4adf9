import TandemProtocol
import TandemWidgetModel

extension WidgetGallery {
    /// One sample per action state of an approvals widget: the first row offering its buttons
    /// (`offering`) or showing its last action as `pending`, `waiting`, `done`, `conflict`,
    /// `needs-app`, `refused` or `expired`, above two rows still awaiting a decision. What the gallery's
    /// "Actions" section shows.
    ///
    /// The samples hold no time, so they are the same on every call.
    public static func standardActionSamples() -> [Sample] {
        let states: [(name: String, state: WidgetActionState?)] = [
            ("offering", nil), ("pending", .pending(.approve)), ("waiting", .waiting(.approve)), ("done", .done(status: "approved")),
            ("conflict", .conflict),
            ("needs-app", .needsApp(.approve)), ("refused", .refused(reason: "tampered")), ("expired", .expired),
        ]
        return states.map { sample in
            // Above the step-up threshold, the first row is a large amount the app must confirm.
            let first =
                sample.name == "needs-app" ? approval("PR-1003", amount: "18,900.00", needsApp: true) : approval("PR-1003", amount: "2,480.00")
            var rows = [first, approval("PR-1004", amount: "312.50"), approval("PR-1005", amount: "1,075.20")]
            rows[0].actionState = sample.state
            let content = WidgetContent(title: "Approvals · sales", rows: rows, state: .fresh, footer: WidgetFooter.text(for: .fresh))
            return Sample(name: sample.name, content: content)
        }
    }

    /// A purchase requisition of the `sales` destination's `Approvals` set awaiting a decision.
    private static func approval(_ item: String, amount: String, needsApp: Bool = false) -> WidgetRow {
        let action = WidgetRowAction(
            ItemAddress(destination: "sales", entitySet: "Approvals", item: item), etag: "W/\"\(item)-1\"", amount: amount.filter { $0 != "," },
            needsApp: needsApp)
        return WidgetRow(key: item, value: "\(amount) EUR", action: action)
    }
}
