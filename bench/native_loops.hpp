// The machine's own limits, measured with plain C++ loops (native_loops.cpp, built for
// this host's SIMD): what a kernel of each class could reach at best.
#pragma once

#include <cstddef>

namespace fibercl::bench {

// The streaming kernels of limits_bench.cpp, on `threads` threads, each taking one
// contiguous slice (what OpenMP's static schedule does). Returns the seconds taken.
enum class Stream { Copy, Scale, Add, Saxpy };
double nativeStream(Stream kind, float *a, float *b, float *c, size_t n, unsigned threads);

// Single-precision FMA throughput: `threads` threads each run independent FMA chains for
// `iterations` rounds; returns GFLOP/s (an FMA counts 2).
double nativeFmaGflops(unsigned threads, long iterations);

// A switch between two user contexts (Boost.Context's jump_fcontext, what FiberCL's
// fibers use) on one thread, ping-ponging `switches` times: nanoseconds per switch.
double nativeFiberSwitchNs(long switches);

} // namespace fibercl::bench
