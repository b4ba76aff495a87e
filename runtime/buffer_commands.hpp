// The commands of the buffer enqueues (read, write, copy, fill and their rectangular
// forms), built in the core: the API layer validates and computes the addresses, these
// make the command that moves the bytes on the device's executor. Each command holds
// the memory objects it touches until it has run.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <memory>

#include "runtime/memory.hpp"
#include "runtime/object.hpp"

namespace fibercl::runtime {

class Command;

// A rectangle's row and slice pitches in bytes.
struct Pitches {
  size_t row, slice;
};

// Copies `size` bytes (read, write, copy). `a`, `b`: the memory objects involved
// (either may be null).
std::unique_ptr<Command> copyBytesCommand(Ref<Mem> a, Ref<Mem> b, void *to, const void *from,
                                          size_t size);
// Copies a region[0] x region[1] x region[2] byte box between two pitched layouts.
std::unique_ptr<Command> copyRectCommand(Ref<Mem> a, Ref<Mem> b, char *to, Pitches toPitches,
                                         const char *from, Pitches fromPitches,
                                         std::array<size_t, 3> region);
// Repeats a pixel of `patternSize` bytes (at most 16) over a region[0] x region[1] x
// region[2] byte box (region[0] a multiple of patternSize).
std::unique_ptr<Command> fillRectCommand(Ref<Mem> m, char *to, Pitches pitches, const void *pattern,
                                         size_t patternSize, std::array<size_t, 3> region);
// Repeats a pattern of `patternSize` bytes (a power of two up to 128) over `size` bytes.
std::unique_ptr<Command> fillCommand(Ref<Mem> m, char *to, size_t size, const void *pattern,
                                     size_t patternSize);

} // namespace fibercl::runtime
