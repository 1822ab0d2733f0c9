import XCTest
final class FormatsTestsPlaceholder: XCTestCase {}
