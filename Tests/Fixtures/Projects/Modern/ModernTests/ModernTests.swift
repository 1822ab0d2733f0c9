import XCTest
@testable import Modern

final class ModernTests: XCTestCase {}
