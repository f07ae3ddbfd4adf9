import Testing
@testable import TandemServer

/// What a backend's `Cache-Control` lets the server do with a page it read for a user.
@Suite struct BackendCacheDirectivesTests {
    @Test func noHeaderKeepsThePageAndRevalidatesEveryTime() {
        let directives = BackendCacheDirectives(cacheControl: nil)
        #expect(directives.storable && directives.maximumAge == 0)
    }

    @Test func maxAgeIsReadAndNoCacheWins() {
        #expect(BackendCacheDirectives(cacheControl: "private, max-age=60").maximumAge == 60)
        #expect(BackendCacheDirectives(cacheControl: "MAX-AGE=\"30\"").maximumAge == 30)
        #expect(BackendCacheDirectives(cacheControl: "max-age=60, no-cache").maximumAge == 0)
        #expect(BackendCacheDirectives(cacheControl: "max-age=-5").maximumAge == 0)
        #expect(BackendCacheDirectives(cacheControl: "max-age=soon").maximumAge == 0)
    }

    @Test func noStoreIsNotKept() {
        #expect(BackendCacheDirectives(cacheControl: "no-cache, no-store").storable == false)
        #expect(BackendCacheDirectives(cacheControl: "private").storable == true)
    }
}
