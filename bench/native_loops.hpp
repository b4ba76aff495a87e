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

// The look-back scan of limits_bench.cpp's scan_lookback in C++: `threads` threads take
// tiles of 64 from an atomic counter, scan them, publish their aggregate in a status word
// and look back at their predecessors' (flag in the top 2 bits). Seconds taken; `out`
// holds the inclusive prefix sums (mod 2^30).
double nativeLookbackScan(const unsigned *in, unsigned *out, size_t n, unsigned threads);

// label_sweeps in C++: `sweeps` Jacobi sweeps (each cell the smallest of itself and its
// two neighbours) from `a` into `b` and back, the cells split in `threads` slices with a
// spinning barrier after each sweep. Seconds taken; the result is in `a` (even sweeps).
double nativeLabelSweeps(unsigned *a, unsigned *b, size_t n, unsigned sweeps, unsigned threads);

} // namespace fibercl::bench
