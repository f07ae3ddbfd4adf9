import Foundation
import TandemHost
import TandemProtocol
import TandemTestSupport
import Testing

/// The push environment read from the build's provisioning profile: the property list inside a
/// signed envelope, its entitlements' `aps-environment`.
@Suite("The push environment comes from the provisioning profile")
struct ProvisioningProfileTests {
    /// A profile as Xcode embeds one: the property list between the CMS envelope's binary parts.
    static func profile(apsEnvironment: String?) -> Data {
        let entitlement = apsEnvironment.map { "<key>aps-environment</key><string>\($0)</string>" } ?? ""
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>Name</key><string>Sales Development</string>
            <key>Entitlements</key><dict>\(entitlement)<key>application-identifier</key><string>TEAM.com.example.sales</string></dict>
            </dict></plist>
            """
        return Data([0x30, 0x82, 0x1F, 0x00, 0x06, 0x09]) + Data(plist.utf8) + Data([0xA0, 0x82, 0x0B, 0x00, 0x30])
    }

    @Test func aDevelopmentProfileIsTheSandbox() {
        #expect(ProvisioningProfile.pushEnvironment(profileData: Self.profile(apsEnvironment: "development")) == .sandbox)
    }

    @Test func aProductionProfileNoProfileOrAnUnreadableOneIsProduction() throws {
        #expect(ProvisioningProfile.pushEnvironment(profileData: Self.profile(apsEnvironment: "production")) == .production)
        #expect(ProvisioningProfile.pushEnvironment(profileData: Self.profile(apsEnvironment: nil)) == .production)
        #expect(ProvisioningProfile.pushEnvironment(profileData: Data("not a profile".utf8)) == .production)
        #expect(ProvisioningProfile.pushEnvironment(profileData: Data("<plist><dict><key>".utf8)) == .production)
        #expect(ProvisioningProfile.pushEnvironment(profile: nil) == .production, "an App Store build has none")
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("embedded.mobileprovision")
        try Self.profile(apsEnvironment: "development").write(to: file)
        #expect(ProvisioningProfile.pushEnvironment(profile: file) == .sandbox)
        #expect(ProvisioningProfile.pushEnvironment(profile: directory.url.appendingPathComponent("missing")) == .production)
    }
}
