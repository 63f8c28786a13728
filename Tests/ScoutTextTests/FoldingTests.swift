import Testing
@testable import ScoutText
