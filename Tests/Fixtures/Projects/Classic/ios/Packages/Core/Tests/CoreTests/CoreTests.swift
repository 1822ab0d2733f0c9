import XCTest
@testable import Core

final class CoreTests: XCTestCase {}
