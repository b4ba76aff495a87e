/* FiberCL builtins library: private helpers shared by the builtins/lib sources.
 *
 * The library is compiled by clang-19 as OpenCL C 3.0 for x86_64 (see
 * builtins/CMakeLists.txt). Every public builtin is defined here with the
 * overloadable attribute so that it gets the Itanium-mangled name user code
 * calls (e.g. _Z13get_global_idj). The declarations come either from Clang's
 * builtin tables (-fdeclare-opencl-builtins, which the clang driver adds by
 * default) or from opencl-c.h; the definitions match both.
 */
#ifndef FIBERCL_BUILTINS_INTERNAL_H
#define FIBERCL_BUILTINS_INTERNAL_H

/* The OpenCL C feature macros (__opencl_c_atomic_scope_device, ...) come from
 * the build as -D options generated from fibercl/device_features.def, as they do
 * for user kernels: Clang 19 defines some of them only for SPIR targets. */

/* Vectors wider than 128 bits are passed in memory (the baseline x86-64 ABI the
 * library is compiled for; user code is compiled for the same baseline, and
 * everything is inlined after linking). Conditions of the form `a | b ? x : y`
 * are intended. */
#pragma clang diagnostic ignored "-Wpsabi"
#pragma clang diagnostic ignored "-Wbitwise-conditional-parentheses"
#pragma clang diagnostic ignored "-Wtautological-unsigned-zero-compare"
#pragma clang diagnostic ignored "-Wtautological-compare"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define FCL_OVL __attribute__((overloadable))
#define FCL_CONST __attribute__((overloadable, const))
#define FCL_PURE __attribute__((overloadable, pure))
#define FCL_INLINE static inline __attribute__((always_inline, overloadable))

/* FIBERCL_CHECK=races: an atomic or fence of a scope narrower than the device's
 * cannot order work-groups, but the x86 target drops the scope. The marker just
 * before it tells the compiler (NarrowScopesPass); with a constant scope the branch
 * folds away, and the marker is gone before code generation, checked or not. */
void __fibercl_narrow_scope(void);
#define FCL_NARROW_SCOPE(s)                                                                \
  do {                                                                                     \
    if ((s) == __OPENCL_MEMORY_SCOPE_WORK_ITEM || (s) == __OPENCL_MEMORY_SCOPE_WORK_GROUP ||  \
        (s) == __OPENCL_MEMORY_SCOPE_SUB_GROUP)                                            \
      __fibercl_narrow_scope();                                                            \
  } while (0)

#endif
