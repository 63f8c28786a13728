import Testing
@testable import ScoutTime
