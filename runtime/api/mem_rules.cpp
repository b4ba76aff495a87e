// The shared memory-flag and host-access rules (mem_rules.hpp).
#include "runtime/api/mem_rules.hpp"
#include "runtime/error.hpp"
#include "runtime/memory.hpp"

namespace fibercl::runtime::api {

namespace {
bool moreThanOne(cl_mem_flags bits) { return bits & (bits - 1); }
} // namespace

void checkMemFlags(cl_mem_flags flags, cl_mem_flags extra) {
  // CL_INVALID_VALUE if values specified in flags are not valid as defined in the
  // Memory Flags table.
  check(flags & ~(kAccessFlags | kHostAccessFlags | kHostPtrFlags | extra), CL_INVALID_VALUE,
        "flags has unknown bits");
  check(moreThanOne(flags & kAccessFlags), CL_INVALID_VALUE,
        "flags: READ_WRITE, WRITE_ONLY and READ_ONLY are mutually exclusive");
  check(moreThanOne(flags & kHostAccessFlags), CL_INVALID_VALUE,
        "flags: HOST_WRITE_ONLY, HOST_READ_ONLY and HOST_NO_ACCESS are exclusive");
  check((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)),
        CL_INVALID_VALUE, "flags: USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR");
}

cl_mem_flags inheritFlags(cl_mem_flags flags, const Mem &parent) {
  // CL_INVALID_VALUE if flags specifies CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or
  // CL_MEM_COPY_HOST_PTR.
  check(flags & kHostPtrFlags, CL_INVALID_VALUE, "flags: host pointer flags");
  cl_mem_flags pf = parent.flags();
  // CL_INVALID_VALUE if the buffer was created with CL_MEM_WRITE_ONLY and flags
  // specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if it was created with
  // CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY.
  check((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)),
        CL_INVALID_VALUE, "flags conflict with the buffer's CL_MEM_WRITE_ONLY");
  check((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)),
        CL_INVALID_VALUE, "flags conflict with the buffer's CL_MEM_READ_ONLY");
  // CL_INVALID_VALUE if the buffer was created with CL_MEM_HOST_WRITE_ONLY and flags
  // specify CL_MEM_HOST_READ_ONLY, or with CL_MEM_HOST_READ_ONLY and flags specify
  // CL_MEM_HOST_WRITE_ONLY, or with CL_MEM_HOST_NO_ACCESS and flags specify
  // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY.
  check((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY), CL_INVALID_VALUE,
        "flags conflict with CL_MEM_HOST_WRITE_ONLY");
  check((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY), CL_INVALID_VALUE,
        "flags conflict with CL_MEM_HOST_READ_ONLY");
  check((pf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)),
        CL_INVALID_VALUE, "flags conflict with CL_MEM_HOST_NO_ACCESS");
  cl_mem_flags effective = flags;
  if (!(flags & kAccessFlags))
    effective |= pf & kAccessFlags;
  if (!(flags & kHostAccessFlags))
    effective |= pf & kHostAccessFlags;
  return effective | (pf & kHostPtrFlags);
}

void checkHostRead(const Mem &m) {
  check(m.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS), CL_INVALID_OPERATION,
        "the memory object was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS");
}

void checkHostWrite(const Mem &m) {
  check(m.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS), CL_INVALID_OPERATION,
        "the memory object was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS");
}

void checkMapFlags(cl_map_flags flags, const Mem &m) {
  constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  check(flags & ~known, CL_INVALID_VALUE, "map_flags has unknown bits");
  check((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)),
        CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with READ or WRITE");
  // CL_INVALID_OPERATION if the object was created with CL_MEM_HOST_WRITE_ONLY or
  // CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set, or with CL_MEM_HOST_READ_ONLY or
  // CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set.
  if (flags & CL_MAP_READ)
    checkHostRead(m);
  if (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    checkHostWrite(m);
}

} // namespace fibercl::runtime::api
