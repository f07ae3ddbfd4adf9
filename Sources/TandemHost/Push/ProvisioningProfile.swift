import Foundation
import TandemProtocol

/// The APNs environment a build's push tokens belong to, read from its provisioning profile
/// (`embedded.mobileprovision`): its entitlements' `aps-environment` says `development` for a
/// debug build on a device and `production` for an ad hoc or enterprise one; an App Store or
/// TestFlight build has no profile in its bundle and is production.
///
/// A token registered under the other environment is refused by APNs (`BadDeviceToken`), so an
/// app reads the environment instead of writing one down:
///
/// ```swift
/// PushRegistrationStep(environment: ProvisioningProfile.pushEnvironment(profile: Bundle.main.url(forResource: "embedded", withExtension: "mobileprovision")))
/// ```
public enum ProvisioningProfile {
    /// The environment of the profile at `url`; production when there is none (the App Store's
    /// builds) or it says nothing else.
    public static func pushEnvironment(profile url: URL?) -> PushEnvironment {
        guard let url, let data = try? Data(contentsOf: url) else { return .production }
        return pushEnvironment(profileData: data)
    }

    /// The environment a profile's bytes name: the property list inside its CMS envelope, its
    /// `Entitlements` → `aps-environment`; production for anything that is not `development`.
    public static func pushEnvironment(profileData data: Data) -> PushEnvironment {
        guard let start = data.range(of: Data("<?xml".utf8)) ?? data.range(of: Data("<plist".utf8)),
              let end = data.range(of: Data("</plist>".utf8), in: start.lowerBound..<data.endIndex)
        else { return .production }
        let plist = data[start.lowerBound..<end.upperBound]
        guard let object = try? PropertyListSerialization.propertyList(from: plist, options: [], format: nil),
              let entitlements = (object as? [String: Any])?["Entitlements"] as? [String: Any]
        else { return .production }
        return entitlements["aps-environment"] as? String == "development" ? .sandbox : .production
    }
}
