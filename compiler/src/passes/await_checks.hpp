// Failed awaits: how a work-group's code tells the scheduler whether it waits.
//
// Waiting is a matter of state, not of place. A work-group waits only when it comes
// back to the same waiting point with the same state: an iteration of a loop that may
// spin (spin_loops.hpp) that wrote nothing to shared memory, made the same changes to
// the group's own (private and __local) memory, and carries the same values into the
// next iteration -- of those its branches and addresses depend on -- as the previous
// one did (a "failed await", as stateless model checkers call such an iteration). An
// iteration that advances an induction variable is progress, however many atomics it
// performs: a long read-mostly scan inside a loop that waits on a flag is working.
//
// What an iteration reads of shared memory need not be compared: shared memory
// changes only by writes, and every write that changes it is progress (yield_points
// .cpp counts them), so while no group makes progress -- the only time the deadlock
// detector looks -- every iteration reads the same values at the same addresses as
// the one before, and a new value seen is a write already counted. (Writers the
// scheduler does not see -- the host through fine-grained SVM, another kernel -- are
// the exception; a pipe's counters, which the runtime moves, are compared.)
//
// The checks, inserted into a kernel body (run only while the runtime asks for them,
// fcl_yield_state::checking: always in deterministic mode, in parallel mode once no
// group has made progress for a while):
//  - every change of private or __local memory inside a loop that may spin (stores,
//    atomics, memory intrinsics) and every read of a pipe's counters there adds a hash
//    of its address and value to fcl_yield_state::observed (a sum, so an iteration's
//    observations are the difference of two readings);
//  - every back-edge of such a loop hashes that difference with the loop-carried values
//    its branches and addresses depend on, compares the result with the previous
//    iteration's (a value carried by the loop) and whether shared memory was written
//    (fcl_yield_state::progress), and counts a failed await or an advance.
// The runtime judges a group at its yield points from those counters (yield_point.cpp).
#pragma once

#include <memory>

namespace llvm {
class Function;
class LoopInfo;
class Value;
} // namespace llvm

namespace fibercl::compiler {

class SpinLoops;

class AwaitChecks {
public:
  // Plans the checks from the body's loops: call before any block of it is split.
  AwaitChecks(llvm::Function &body, llvm::LoopInfo &loops, const SpinLoops &spin);
  ~AwaitChecks();
  // Inserts them; `state` is the group's fcl_yield_state pointer (null when the
  // launch does not schedule its groups).
  void insert(llvm::Value *state);

private:
  struct Plan;
  std::unique_ptr<Plan> plan_;
};

} // namespace fibercl::compiler
