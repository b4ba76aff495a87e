/* Work-item functions (OpenCL C 3.0 s6.15.1).
 *
 * They are written in terms of the three markers of kernel_abi.h, which the
 * FiberCL compiler replaces after linking this library:
 *
 *   uint __fibercl_local_id(uint dim)  the work-item's local id in dim (0 if dim > 2)
 *   __fibercl_ctx()                    the work-group's fcl_group_ctx
 *
 * __fibercl_ctx is declared here to return `const __private fcl_group_ctx *`,
 * i.e. a pointer in LLVM address space 0 (the flat host address space under
 * -ffake-address-space-map): `ptr` in the IR, no addrspacecast needed for a
 * host pointer. The markers are declared `const` (readnone): for a given
 * work-item they always return the same value, so the optimiser may CSE and
 * hoist them (the ctx is never modified while the group runs).
 *
 * Out-of-range dimensions (dim >= get_work_dim()) return 0 for ids and offsets
 * and 1 for sizes. Everything is branch-free (selects), so after inlining the
 * work-item loop stays vectorisable.
 */
#include "fcl_internal.h"
#include "fibercl/kernel_abi.h"

uint __fibercl_local_id(uint dim) __attribute__((const));
const __private fcl_group_ctx *__fibercl_ctx(void) __attribute__((const));

/* dim clamped to a valid array index (the result is discarded by a select when
 * dim is out of range). */
FCL_INLINE uint fcl_dim_index(uint dim) { return dim < 3u ? dim : 0u; }
/* work_dim is 1..3 (clEnqueueNDRangeKernel rejects anything else), so
 * dimension 0 is always valid: with a constant 0 this folds away, and the
 * common 1D kernel has no select on work_dim (nothing for the optimiser to
 * unswitch the work-item loop on). */
FCL_INLINE bool fcl_dim_valid(uint dim) { return (dim == 0u) | (dim < __fibercl_ctx()->work_dim); }

FCL_CONST uint get_work_dim(void) { return __fibercl_ctx()->work_dim; }

FCL_CONST size_t get_global_size(uint dim) {
  size_t v = __fibercl_ctx()->global_size[fcl_dim_index(dim)];
  return fcl_dim_valid(dim) ? v : (size_t)1;
}

FCL_CONST size_t get_local_size(uint dim) {
  size_t v = __fibercl_ctx()->local_size[fcl_dim_index(dim)];
  return fcl_dim_valid(dim) ? v : (size_t)1;
}

FCL_OVL size_t get_enqueued_local_size(uint dim) {
  size_t v = __fibercl_ctx()->enqueued_local_size[fcl_dim_index(dim)];
  return fcl_dim_valid(dim) ? v : (size_t)1;
}

FCL_CONST size_t get_num_groups(uint dim) {
  size_t v = __fibercl_ctx()->num_groups[fcl_dim_index(dim)];
  return fcl_dim_valid(dim) ? v : (size_t)1;
}

FCL_CONST size_t get_group_id(uint dim) {
  size_t v = __fibercl_ctx()->group_id[fcl_dim_index(dim)];
  return fcl_dim_valid(dim) ? v : (size_t)0;
}

FCL_CONST size_t get_global_offset(uint dim) {
  size_t v = __fibercl_ctx()->global_offset[fcl_dim_index(dim)];
  return fcl_dim_valid(dim) ? v : (size_t)0;
}

/* A launch's dimensions past get_work_dim() have one work-item (local size 1,
 * prepareNDRange), whose id there is 0: no select on work_dim, so that a 2-D kernel's get_local_id(1) is the
 * work-item loop's counter (CheckedLoopVersionsPass versions a nest on it). */
FCL_CONST size_t get_local_id(uint dim) {
  return dim < 3u ? (size_t)__fibercl_local_id(dim) : (size_t)0;
}

/* Likewise a global id there: the runtime runs such a dimension as one group of one
 * work-item at offset 0 (prepareNDRange), so the sum is 0. */
FCL_CONST size_t get_global_id(uint dim) {
  const __private fcl_group_ctx *c = __fibercl_ctx();
  uint i = fcl_dim_index(dim);
  size_t v = c->group_id[i] * c->enqueued_local_size[i] +
             (size_t)__fibercl_local_id(i) + c->global_offset[i];
  return dim < 3u ? v : (size_t)0;
}

FCL_OVL size_t get_global_linear_id(void) {
  size_t id0 = get_global_id(0) - get_global_offset(0);
  size_t id1 = get_global_id(1) - get_global_offset(1);
  size_t id2 = get_global_id(2) - get_global_offset(2);
  return (id2 * get_global_size(1) + id1) * get_global_size(0) + id0;
}

FCL_OVL size_t get_local_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
         get_local_id(0);
}
