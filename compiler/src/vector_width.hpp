// How wide a kernel's vectors are. On hosts with 512-bit vectors (AVX-512), kernels that
// only stream memory -- a few operations per global load or store, no loop, no barrier,
// like copy, scale, vecadd, saxpy -- are compiled for 256-bit vectors; every other
// kernel keeps the full width. Measured on a Zen 5 host (bench/RESULTS.md, issue 30):
// copy over 64M floats at 0.86x PoCL with 512-bit loads and stores, 1.00x with 256-bit;
// compute kernels (mandelbrot, the math functions) twice as fast with 512.
#pragma once

#include <vector>

namespace llvm {
class Function;
class Module;
class TargetMachine;
} // namespace llvm

namespace fibercl::compiler {

struct KernelInfo;

// A kernel body (one work-item, everything inlined) that is straight-line code doing
// at most two arithmetic operations per global-memory access.
bool streamsMemory(const llvm::Function &body);

// Sets "prefer-vector-width"="256" on the work-group function and body of every
// kernel of `m` that streams memory, if the host's vectors are wider.
void narrowStreamingKernels(llvm::Module &m, const std::vector<KernelInfo> &kernels,
                            const llvm::TargetMachine &tm);

} // namespace fibercl::compiler
