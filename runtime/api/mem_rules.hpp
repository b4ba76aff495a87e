// The rules of memory flags and host access that buffers, sub-buffers and images share
// (one place for each): flag validation, inheritance from a parent buffer, host read
// and write permission, map flags.
#pragma once

#include <CL/cl.h>

namespace fibercl::runtime {
class Mem;
}

namespace fibercl::runtime::api {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPtrFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

// CL_INVALID_VALUE if flags has bits beyond the memory flags (and `extra`), or flags
// that exclude each other.
void checkMemFlags(cl_mem_flags flags, cl_mem_flags extra = 0);

// The flags of a memory object made on `parent` (a sub-buffer, an image from a
// buffer): CL_INVALID_VALUE if they name host pointer flags or contradict the
// parent's access flags; unspecified access flags and the host pointer flags are the
// parent's.
cl_mem_flags inheritFlags(cl_mem_flags flags, const Mem &parent);

// CL_INVALID_OPERATION if the host may not read (write) the object.
void checkHostRead(const Mem &m);
void checkHostWrite(const Mem &m);

// CL_INVALID_VALUE for unknown or contradicting map flags; then the host access the
// map needs (CL_INVALID_OPERATION).
void checkMapFlags(cl_map_flags flags, const Mem &m);

} // namespace fibercl::runtime::api
