import Foundation
import Mustache

/// Writes a project from a ``ProjectSpec``: a new app (``ProjectKind/app``) or a widget
/// extension beside an app already in the store (``ProjectKind/widget``).
///
/// Nothing is written until every file has been rendered, and the files go to a temporary
/// directory first, moved into place last: an error leaves the file system as it was.
///
/// ```swift
/// let generator = try ProjectGenerator(version: "tandem 0.9.0")
/// let written = try generator.write(.app, spec: spec, to: URL(fileURLWithPath: "Sales"))
/// ```
public struct ProjectGenerator: Sendable {
    private let library: MustacheLibrary
    private let version: String

    /// Parses every template.
    ///
    /// - Parameter version: Named in the generated files' headers ("tandem 0.9.0").
    /// - Throws: ``GeneratorError/template(name:reason:)`` for a template that does not parse
    ///   (a build defect: the tests render every template).
    public init(version: String) throws(GeneratorError) {
        var library = MustacheLibrary()
        for template in GeneratorTemplate.allCases {
            do {
                try library.register(String(decoding: template.source, as: UTF8.self), named: template.rawValue)
            } catch {
                throw .template(name: template.rawValue, reason: "\(error)")
            }
        }
        self.library = library
        self.version = version
    }

    /// The files of a project of `kind` for `spec`, rendered, nothing written.
    ///
    /// - Throws: ``GeneratorError/template(name:reason:)`` if a template does not render.
    public func files(_ kind: ProjectKind, spec: ProjectSpec) throws(GeneratorError) -> [GeneratedFile] {
        let core = kind == .app ? "AppCore" : "WidgetCore"
        let model = TemplateModel(spec: spec, coreName: core, generator: version)
        let widget = kind == .app ? "Widget" : "\(spec.name)Widget"
        var plan: [(String, GeneratorTemplate)] = [
            ("\(widget)/\(spec.name)Widgets.swift", .widgetBundle),
            ("\(widget)/BusinessDataWidget.swift", .widgetDefinition),
            ("\(widget)/WidgetServices.swift", .widgetServices),
            ("\(widget)/WidgetSetupError.swift", .widgetSetupError),
            ("\(widget)/\(spec.name)WidgetIntents.swift", .widgetIntents),
            ("\(widget)/PrivacyInfo.xcprivacy", .widgetPrivacy),
            ("\(core)/Package.swift", .corePackage),
            ("\(core)/Sources/\(core)/AppSettings.swift", .coreSettings),
            ("\(core)/Sources/\(core)/AppWidgets.swift", .coreWidgets),
            ("\(core)/Sources/\(core)Host/AppFlow.swift", .coreFlow),
            ("\(core)/Sources/\(core)Host/AppDestination.swift", .coreDestination),
            ("\(core)/Sources/\(core)Host/AppLinkError.swift", .coreLinkError),
            ("\(core)/Sources/\(core)Host/AppRouter.swift", .coreRouter),
            ("\(core)/Tests/\(core)Tests/\(core)Tests.swift", .coreTests),
        ]
        switch kind {
        case .app:
            plan += [
                ("project.yml", .project),
                ("README.md", .appReadme),
                (".gitignore", .gitignore),
                ("App/\(spec.name)App.swift", .appMain),
                ("App/AppDelegate.swift", .appDelegate),
                ("App/AppModel.swift", .appModel),
                ("App/AppServices.swift", .appServices),
                ("App/AppSetupError.swift", .appSetupError),
                ("App/PromptModel.swift", .appPrompts),
                ("App/RootView.swift", .appRootView),
                ("App/SecretPromptSheet.swift", .appPromptSheet),
                ("App/WidgetRegistrySync.swift", .appRegistrySync),
                ("App/\(spec.name)AppIntents.swift", .appIntentsPackage),
                ("App/AppIntentsInstallation.swift", .appIntentsInstallation),
                ("App/PrivacyInfo.xcprivacy", .appPrivacy),
            ]
        case .widget:
            plan += [
                ("TandemWidget.yml", .widgetProject),
                ("TandemWidget-README.md", .widgetReadme),
                ("\(spec.name)WidgetHost/WidgetRegistrySync.swift", .appRegistrySync),
                ("\(spec.name)WidgetHost/\(spec.name)AppIntents.swift", .appIntentsPackage),
                ("\(spec.name)WidgetHost/AppIntentsInstallation.swift", .appIntentsInstallation),
            ]
        }
        var files = try plan.map { path, template throws(GeneratorError) in
            guard let text = library.render(model, withTemplate: template.rawValue) else {
                throw .template(name: template.rawValue, reason: "not registered")
            }
            return GeneratedFile(path: path, contents: text)
        }
        if kind == .app {
            // A placeholder icon, so the first archive validates; the team replaces the PNG.
            let catalog = "App/Assets.xcassets"
            files += [
                GeneratedFile(path: "\(catalog)/Contents.json", contents: AppIcon.catalogContents),
                GeneratedFile(path: "\(catalog)/AppIcon.appiconset/Contents.json", contents: AppIcon.iconSetContents),
                GeneratedFile(path: "\(catalog)/AppIcon.appiconset/AppIcon.png", bytes: AppIcon.png(for: spec.bundleID)),
            ]
        }
        return files
    }

    /// Writes a project of `kind` for `spec`.
    ///
    /// - Parameter directory: For ``ProjectKind/app``, the new project's directory, which must
    ///   not exist or be empty. For ``ProjectKind/widget``, the existing app's directory; the
    ///   files it adds must not exist there yet.
    /// - Returns: The paths written, relative to `directory`.
    /// - Throws: ``GeneratorError``; nothing is left behind.
    @discardableResult
    public func write(_ kind: ProjectKind, spec: ProjectSpec, to directory: URL) throws(GeneratorError) -> [String] {
        let files = try files(kind, spec: spec)
        let manager = FileManager.default
        let directory = directory.standardizedFileURL
        switch kind {
        case .app:
            // Only an empty directory may be there already (a file lists no entries: refused too).
            if manager.fileExists(atPath: directory.path), (try? manager.contentsOfDirectory(atPath: directory.path))?.isEmpty != true {
                throw .outputExists(directory.path)
            }
            let parent = directory.deletingLastPathComponent()
            let staging = try stage(files, in: parent)
            do {
                if manager.fileExists(atPath: directory.path) { try manager.removeItem(at: directory) }  // empty, checked above
                try manager.moveItem(at: staging, to: directory)
            } catch {
                try? manager.removeItem(at: staging)
                throw .io("\(error.localizedDescription)")
            }
        case .widget:
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw .appDirectoryMissing(directory.path)
            }
            let tops = Array(Set(files.map { String($0.path.split(separator: "/")[0]) })).sorted()
            for top in tops where manager.fileExists(atPath: directory.appendingPathComponent(top).path) {
                throw .outputExists(directory.appendingPathComponent(top).path)
            }
            let staging = try stage(files, in: directory)
            defer { try? manager.removeItem(at: staging) }
            var moved: [URL] = []
            do {
                for top in tops {
                    let destination = directory.appendingPathComponent(top)
                    try manager.moveItem(at: staging.appendingPathComponent(top), to: destination)
                    moved.append(destination)
                }
            } catch {
                for url in moved { try? manager.removeItem(at: url) }
                throw .io("\(error.localizedDescription)")
            }
        }
        return files.map(\.path)
    }

    /// Writes `files` into a new hidden directory in `parent` and returns it.
    private func stage(_ files: [GeneratedFile], in parent: URL) throws(GeneratorError) -> URL {
        let manager = FileManager.default
        let staging = parent.appendingPathComponent(".tandem-generate-\(UUID().uuidString)", isDirectory: true)
        do {
            try manager.createDirectory(at: staging, withIntermediateDirectories: true)
            for file in files {
                let url = staging.appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.bytes.write(to: url)
            }
            return staging
        } catch {
            try? manager.removeItem(at: staging)
            throw .io("\(error.localizedDescription)")
        }
    }
}
