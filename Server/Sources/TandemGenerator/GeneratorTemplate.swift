/// The templates under `Templates/`, compiled into the binary. Each starts with
/// `{{% CONTENT_TYPE: TEXT}}`, so values are inserted as they are: ``ProjectSpec`` has already
/// refused any value that could break out of its place.
enum GeneratorTemplate: String, CaseIterable, Sendable {
    case project = "project.yml"
    case widgetProject = "widget.yml"
    case appReadme = "app-readme.md"
    case widgetReadme = "widget-readme.md"
    case gitignore
    case appMain = "app-main.swift"
    case appDelegate = "app-delegate.swift"
    case appModel = "app-model.swift"
    case appServices = "app-services.swift"
    case appSetupError = "app-setup-error.swift"
    case appPrompts = "app-prompts.swift"
    case appRootView = "app-root-view.swift"
    case appPromptSheet = "app-prompt-sheet.swift"
    case appRegistrySync = "app-registry-sync.swift"
    case widgetBundle = "widget-bundle.swift"
    case widgetDefinition = "widget-definition.swift"
    case widgetServices = "widget-services.swift"
    case widgetSetupError = "widget-setup-error.swift"
    case widgetIntents = "widget-intents.swift"
    case corePackage = "core-package.swift"
    case coreSettings = "core-settings.swift"
    case coreFlow = "core-flow.swift"
    case coreWidgets = "core-widgets.swift"
    case coreDestination = "core-destination.swift"
    case coreLinkError = "core-link-error.swift"
    case coreRouter = "core-router.swift"
    case coreTests = "core-tests.swift"
    case appIntentsPackage = "app-intents-package.swift"
    case appIntentsInstallation = "app-intents-installation.swift"
    case appPrivacy = "app-privacy.xcprivacy"
    case widgetPrivacy = "widget-privacy.xcprivacy"

    /// The template's text.
    var source: [UInt8] {
        switch self {
        case .project: PackageResources.project_yml_mustache
        case .widgetProject: PackageResources.widget_yml_mustache
        case .appReadme: PackageResources.app_readme_md_mustache
        case .widgetReadme: PackageResources.widget_readme_md_mustache
        case .gitignore: PackageResources.gitignore_mustache
        case .appMain: PackageResources.app_main_swift_mustache
        case .appDelegate: PackageResources.app_delegate_swift_mustache
        case .appModel: PackageResources.app_model_swift_mustache
        case .appServices: PackageResources.app_services_swift_mustache
        case .appSetupError: PackageResources.app_setup_error_swift_mustache
        case .appPrompts: PackageResources.app_prompts_swift_mustache
        case .appRootView: PackageResources.app_root_view_swift_mustache
        case .appPromptSheet: PackageResources.app_prompt_sheet_swift_mustache
        case .appRegistrySync: PackageResources.app_registry_sync_swift_mustache
        case .widgetBundle: PackageResources.widget_bundle_swift_mustache
        case .widgetDefinition: PackageResources.widget_definition_swift_mustache
        case .widgetServices: PackageResources.widget_services_swift_mustache
        case .widgetSetupError: PackageResources.widget_setup_error_swift_mustache
        case .widgetIntents: PackageResources.widget_intents_swift_mustache
        case .corePackage: PackageResources.core_package_swift_mustache
        case .coreSettings: PackageResources.core_settings_swift_mustache
        case .coreFlow: PackageResources.core_flow_swift_mustache
        case .coreWidgets: PackageResources.core_widgets_swift_mustache
        case .coreDestination: PackageResources.core_destination_swift_mustache
        case .coreLinkError: PackageResources.core_link_error_swift_mustache
        case .coreRouter: PackageResources.core_router_swift_mustache
        case .coreTests: PackageResources.core_tests_swift_mustache
        case .appIntentsPackage: PackageResources.app_intents_package_swift_mustache
        case .appIntentsInstallation: PackageResources.app_intents_installation_swift_mustache
        case .appPrivacy: PackageResources.app_privacy_xcprivacy_mustache
        case .widgetPrivacy: PackageResources.widget_privacy_xcprivacy_mustache
        }
    }
}
