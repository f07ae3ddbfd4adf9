/// What `tandem generate` writes.
public enum ProjectKind: String, Sendable, CaseIterable {
    /// A new project: the host app, its widget extension, the `AppCore` package, `project.yml`
    /// and a README, in a new directory.
    case app
    /// A widget extension for an app already in the store, added beside its project: the
    /// extension's sources, the `WidgetCore` package, an XcodeGen spec to include and a README
    /// with the checklist.
    case widget
}
