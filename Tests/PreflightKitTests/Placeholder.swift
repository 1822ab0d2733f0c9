import XCTest
final class PreflightKitTestsPlaceholder: XCTestCase {}
