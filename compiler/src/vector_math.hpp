// Vector variants of the math functions, so that math does not stop the loop
// vectoriser: SLEEF's implementations under the x86 vector function ABI names
// (libsleefgnuabi: _ZGVdN8v_sinf = 8 floats in a ymm register, ...).
#pragma once

namespace llvm {
class Module;
class TargetLibraryInfoImpl;
class TargetMachine;
} // namespace llvm

namespace fibercl::compiler {

// The shared library that defines the vector variants (resolved by the JIT).
inline constexpr const char *kVectorMathLibrary = "libsleefgnuabi.so.3";

// True if kVectorMathLibrary can be loaded in this process and FIBERCL_VECTOR_MATH is
// not 0; otherwise no vector variant is declared and math calls stay scalar.
bool vectorMathAvailable();

// Declares, for each math function whose SLEEF variant meets the OpenCL C ULP bound
// (all are the 1-ulp "u10" variants or exact), its vector variants for every width
// the host's ISA (SSE, AVX2, AVX-512) has. Both the libm name (acoshf) and the LLVM
// intrinsic (llvm.sin.f32) are mapped: the loop vectoriser widens scalar calls and
// the code generator replaces explicit vector calls (sin(float8)).
// `withGuarded` adds the functions whose variants need a guard (pow, cosh, ...): their
// vector calls name __fibercl_guarded_<variant>, which defineGuardedMathFunctions must
// then define -- so only the optimisation pipeline asks for them, not codegen (which
// gets the explicit vector calls from defineGuardedMathFunctions instead).
void addVectorMathFunctions(llvm::TargetLibraryInfoImpl &tlii, const llvm::TargetMachine &tm,
                            bool withGuarded);

// Defines every __fibercl_guarded_<variant> the vectorisers called in `m` (and calls
// the guards for explicit vector calls of the same functions, llvm.pow.v8f32): SLEEF's
// result, with the lanes that came out inf or NaN recomputed by the C library.
void defineGuardedMathFunctions(llvm::Module &m, const llvm::TargetMachine &tm);

} // namespace fibercl::compiler
