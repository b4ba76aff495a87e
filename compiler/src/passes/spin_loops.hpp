// Which memory accesses another work-group can see, and which loops may wait for one.
//
// A loop *may spin* (wait on another work-group) when an exit condition depends on
// memory another group can write, read inside the loop -- an atomic or volatile load
// of global (or generic) memory, the result of an atomic read-modify-write, a plain
// global load in a loop that synchronises (contains an atomic or a fence), or a pipe's
// counters (the runtime's pipe reservation and count functions) -- and no
// exit comes by itself: LLVM cannot bound its trip count, and no exit is a counter of
// the loop passing a bound (`for (i = 0; i < p->count; i += 16)` ends by itself even
// when p->count is re-read from global memory every iteration). Delay loops (`for (i = 0; i < n;
// ++i) sink++;`), bounded polls (`for (i = 0; i < 4000; ++i) if (flag) break;`) and loops over
// private or __local state never wait on another group: they get no loop poll, and
// the scheduler counts a work-group running them as making progress.
//
// Used by YieldPointsPass on a kernel body after SROA (so private variables are SSA
// values, and ScalarEvolution can compute trip counts).
#pragma once

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>

namespace llvm {
class Instruction;
class Loop;
class LoopInfo;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace fibercl::compiler {

// Can memory at `pointer` be written or read by another work-group? False for private
// (allocas, address space 0), __local and __constant memory; true for global memory
// and for generic pointers whose origin is not known to be private or local.
bool isShared(const llvm::Value *pointer);

// The pointer operand of a load, store, atomic or memory intrinsic; nullptr otherwise.
const llvm::Value *accessedPointer(const llvm::Instruction &i);

// An atomic operation (load, store, read-modify-write, compare-exchange) on shared
// memory. Atomics on __local memory cannot be seen by another group.
bool isSharedAtomic(const llvm::Instruction &i);
// A volatile load or store of shared memory.
bool isSharedVolatile(const llvm::Instruction &i);

class SpinLoops {
public:
  SpinLoops(llvm::LoopInfo &loops, llvm::ScalarEvolution &scev);
  bool empty() const { return spinning_.empty(); }
  bool spins(const llvm::Loop *loop) const { return spinning_.count(loop) != 0; }
  // Is `i` inside a loop that may spin (reaching it again means waiting)?
  bool waitingAt(const llvm::Instruction &i) const;
  // Each loop that may spin, with the instruction its exit waits on (FIBERCL_DEBUG=yields).
  struct Reason {
    const llvm::Loop *loop;
    const llvm::Instruction *waitsOn;
  };
  const llvm::SmallVector<Reason, 4> &reasons() const { return reasons_; }

private:
  llvm::LoopInfo &loops_;
  llvm::SmallPtrSet<const llvm::Loop *, 8> spinning_;
  llvm::SmallVector<Reason, 4> reasons_;
};

} // namespace fibercl::compiler
