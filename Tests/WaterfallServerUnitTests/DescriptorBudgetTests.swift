import Testing

@testable import WaterfallServer

/// The open-file limit shared among the daemon, connections and journals.
@Suite struct DescriptorBudgetTests {
    @Test(arguments: [
        // limit, maxOpenJournals, durable → connections, journals
        (128, 1024, true, 48, 48),
        (64, 1024, true, 16, 16),
        (1024, 1024, true, 496, 496),
        (65_536, 1024, true, 64_480, 1024),
        (128, 1024, false, 96, 0),
        (1_000, 100, true, 868, 100),
    ])
    func sharesTheLimit(limit: Int, maxOpenJournals: Int, durable: Bool, connections: Int, journals: Int) throws {
        let budget = try DescriptorBudget(limit: limit, maxOpenJournals: maxOpenJournals, durable: durable)
        #expect(budget.connections == connections)
        #expect(budget.journals == journals)
        #expect(DescriptorBudget.reserved + budget.connections + budget.journals == limit)
    }

    @Test func refusesALimitTooSmallToRun() {
        #expect(throws: DescriptorBudget.TooSmall(limit: 40, needed: 48)) {
            try DescriptorBudget(limit: 40, maxOpenJournals: 1024, durable: true)
        }
        #expect(throws: Never.self) { try DescriptorBudget(limit: 40, maxOpenJournals: 1024, durable: false) }
        let message = "\(DescriptorBudget.TooSmall(limit: 40, needed: 48))"
        #expect(message.contains("is 40 descriptors") && message.contains("at least 48"))
    }

    @Test func countsTheDescriptorsInUse() {
        #expect(DescriptorBudget.inUse() >= 3)
    }
}
