import TestTurns
import Testing

/// The turns every suite's tests take: at most a count at once, first come first served, a slot given back however
/// its holder ends, and one turn per test whatever its suites carry.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct TestTurnsTests {
    /// How many hold a slot now, the most at once, and the order they got theirs.
    actor Holders {
        var now = 0
        var most = 0
        var order: [Int] = []

        func enter(_ index: Int) {
            now += 1
            most = max(most, now)
            order.append(index)
        }

        func leave() { now -= 1 }
    }

    struct Failure: Error {}

    @Test(arguments: [1, 2, 3])
    func slots_holdAtMostTheirCount_andAreTakenInTheOrderAsked(count: Int) async {
        let slots = Slots(count: count)
        let holders = Holders()
        for _ in 0..<count { await slots.acquire() }  // `count` at once: none of these waits
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask {
                    await Slots.holding(slots) {
                        await holders.enter(index)
                        await Task.yield()
                        await holders.leave()
                    }
                }
                // The next asks only once this one waits (or, were the slots broken, got in): the order asked is
                // 0, 1, 2... A broken count ends the wait at once and fails below, not at the time limit.
                while await slots.waitingCount + holders.order.count < index + 1, !Task.isCancelled {
                    await Task.yield()
                }
            }
            #expect(await holders.order.isEmpty, "all \(count) slots are held: every later one waits")
            for _ in 0..<count { await slots.release() }
        }
        #expect(await holders.most <= count)
        #expect(await holders.order == Array(0..<6))
    }

    @Test func aSlot_isGivenBackWhenItsHolderThrows() async throws {
        let slots = Slots(count: 1)
        await #expect(throws: Failure.self) { try await Slots.holding(slots) { throw Failure() } }
        let taken = await Slots.holding(slots) { "taken again" }
        #expect(taken == "taken again")
    }

    @Test func aWaiter_takesTheSlotItsHolderGivesBack() async {
        let slots = Slots(count: 1)
        await slots.acquire()
        let waiter = Task { await Slots.holding(slots) { "the waiter's turn" } }
        await slots.release()
        #expect(await waiter.value == "the waiter's turn")
    }

    @Test func aTestTakesOneTurn_asAWhole_andALightTraitLeavesAHeavyTestToItsHeavyTurn() throws {
        let test = try #require(Test.current)
        let light = TakesTurns.takesTurns
        let heavy = TakesTurns.takesTurns(.heavy)
        #expect(test.traits.contains { ($0 as? TakesTurns)?.weight == .light }, "the suite's trait reaches its tests")
        #expect(light.scopeProvider(for: test, testCase: nil) != nil)
        #expect(light.scopeProvider(for: test, testCase: Test.Case.current) == nil, "not each case: their clocks run")
        #expect(heavy.scopeProvider(for: test, testCase: nil)?.weight == .heavy)
    }
}

/// A heavy suite's tests hold a heavy turn, which also counts among every suite's.
@Suite(.takesTurns(.heavy), .timeLimit(.minutes(1)))
struct HeavyTestTurnsTests {
    @Test func aHeavyTest_takesItsHeavyTurnAlone() throws {
        let test = try #require(Test.current)
        #expect(TakesTurns.takesTurns.scopeProvider(for: test, testCase: nil) == nil)
        #expect(TakesTurns.takesTurns(.heavy).scopeProvider(for: test, testCase: nil) != nil)
    }
}
