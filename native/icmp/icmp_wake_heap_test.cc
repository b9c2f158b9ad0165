// One case per rule of the wake heap (icmp_wake_heap.cc), then a long run of random operations checked
// against a sorted reference. Prints "ok <name>" or "not ok <name>: <why>" per case and exits 1 if any failed.
// Built and run by test/icmp/wake-heap.test.ts; by hand, from the repository root:
//   g++ -std=c++17 -Wall -Wextra -Werror -Inative native/icmp/icmp_wake_heap{_test,}.cc
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "icmp/icmp_wake_heap.h"
#include "testing/rule_cases.h"

using nettools::icmp::WakeHeap;

namespace {

// Empties the heap earliest first: the (due, slot) pairs in the order they came out.
std::vector<std::pair<uint64_t, uint32_t>> Drain(WakeHeap& h) {
  std::vector<std::pair<uint64_t, uint32_t>> out;
  while (!h.empty()) {
    out.emplace_back(h.top_due(), h.top_slot());
    h.Clear(h.top_slot());
  }
  return out;
}

std::string Dues(const std::vector<std::pair<uint64_t, uint32_t>>& got) {
  std::string s;
  for (const auto& [due, slot] : got) s += std::to_string(due) + "@" + std::to_string(slot) + " ";
  return s;
}

std::string PopsInDueOrder() {
  WakeHeap h;
  const uint64_t dues[] = {50, 10, 40, 30, 20, 60, 5};
  for (uint64_t due : dues) h.Set(h.Take(), due);
  const auto got = Drain(h);
  const std::vector<std::pair<uint64_t, uint32_t>> want = {{5, 6}, {10, 1}, {20, 4}, {30, 3}, {40, 2}, {50, 0}, {60, 5}};
  return got == want ? "" : "popped " + Dues(got);
}

std::string SetMovesAnEntryEitherWay() {
  WakeHeap h;
  for (uint64_t due = 10; due <= 50; due += 10) h.Set(h.Take(), due);
  h.Set(0, 45);  // the earliest becomes late
  h.Set(4, 1);   // the latest becomes the earliest
  const auto got = Drain(h);
  const std::vector<std::pair<uint64_t, uint32_t>> want = {{1, 4}, {20, 1}, {30, 2}, {40, 3}, {45, 0}};
  return got == want ? "" : "popped " + Dues(got);
}

std::string ClearTakesOutOnlyThatSlot() {
  WakeHeap h;
  for (uint64_t due = 10; due <= 70; due += 10) h.Set(h.Take(), due);
  h.Clear(2);
  h.Clear(5);
  if (h.contains(2) || h.contains(5) || !h.contains(3)) return "contains() wrong after Clear";
  const auto got = Drain(h);
  const std::vector<std::pair<uint64_t, uint32_t>> want = {{10, 0}, {20, 1}, {40, 3}, {50, 4}, {70, 6}};
  return got == want ? "" : "popped " + Dues(got);
}

std::string ClearOfASlotOutOfTheHeapDoesNothing() {
  WakeHeap h;
  const uint32_t in = h.Take();
  const uint32_t out = h.Take();
  h.Set(in, 7);
  h.Clear(out);
  return h.size() == 1 && h.top_slot() == in && h.top_due() == 7 ? "" : "the other entry was disturbed";
}

std::string FreeHandsTheSlotToTheNextTake() {
  WakeHeap h;
  const uint32_t a = h.Take();
  h.Take();
  h.Set(a, 3);
  h.Free(a);
  if (!h.empty()) return "a freed slot stayed in the heap";
  const uint32_t again = h.Take();
  if (again != a) return "took " + std::to_string(again) + ", not the freed " + std::to_string(a);
  return h.contains(again) ? "a slot taken again starts in the heap" : "";
}

std::string EqualDueTimesAllComeOut() {
  WakeHeap h;
  for (int i = 0; i < 9; ++i) h.Set(h.Take(), 100);
  const auto got = Drain(h);
  std::set<uint32_t> slots;
  for (const auto& entry : got) slots.insert(entry.second);
  return got.size() == 9 && slots.size() == 9 ? "" : "popped " + Dues(got);
}

// Takes, frees, sets and clears at random, checking after each that the top is the reference's earliest.
std::string RandomOperationsAgreeWithASortedReference() {
  WakeHeap h;
  std::set<std::pair<uint64_t, uint32_t>> ref;
  std::vector<uint64_t> due_of;  // per slot, while in the reference
  std::vector<uint32_t> held;
  std::mt19937_64 rng(12345);
  for (int step = 0; step < 200000; ++step) {
    const unsigned op = rng() % 8;
    if (held.empty() || op == 0) {
      const uint32_t slot = h.Take();
      if (slot >= due_of.size()) due_of.resize(slot + 1);
      held.push_back(slot);
      continue;
    }
    const size_t pick = rng() % held.size();
    const uint32_t slot = held[pick];
    if (h.contains(slot)) ref.erase({due_of[slot], slot});
    if (op == 1) {
      h.Free(slot);
      held[pick] = held.back();
      held.pop_back();
    } else if (op == 2) {
      h.Clear(slot);
    } else {
      due_of[slot] = rng() % 1000;
      h.Set(slot, due_of[slot]);
      ref.insert({due_of[slot], slot});
    }
    if (h.size() != ref.size()) return "size " + std::to_string(h.size()) + " at step " + std::to_string(step);
    if (!ref.empty() && h.top_due() != ref.begin()->first) return "wrong earliest at step " + std::to_string(step);
  }
  const auto got = Drain(h);
  for (size_t i = 1; i < got.size(); ++i) {
    if (got[i].first < got[i - 1].first) return "drained out of order at " + std::to_string(i);
  }
  return "";
}

}  // namespace

int main() {
  const nettools::testing::RuleCase cases[] = {
      {"pops-in-due-order", PopsInDueOrder},
      {"set-moves-an-entry-either-way", SetMovesAnEntryEitherWay},
      {"clear-takes-out-only-that-slot", ClearTakesOutOnlyThatSlot},
      {"clear-of-a-slot-out-of-the-heap-does-nothing", ClearOfASlotOutOfTheHeapDoesNothing},
      {"free-hands-the-slot-to-the-next-take", FreeHandsTheSlotToTheNextTake},
      {"equal-due-times-all-come-out", EqualDueTimesAllComeOut},
      {"random-operations-agree-with-a-sorted-reference", RandomOperationsAgreeWithASortedReference},
  };
  return nettools::testing::RunRules(cases);
}
