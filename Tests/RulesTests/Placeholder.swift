import XCTest
final class RulesTestsPlaceholder: XCTestCase {}
