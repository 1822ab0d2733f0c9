import XCTest
final class ArtifactsTestsPlaceholder: XCTestCase {}
