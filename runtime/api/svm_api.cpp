// Entry points for shared virtual memory: allocation and the clEnqueueSVM* commands.
// Host and device share one address space and the CPU's coherence, so SVM of every
// kind is host memory (runtime/svm.hpp): maps and migrations only order, copies and
// fills run on the executor like the buffer commands.
#include "runtime/api/enqueue.hpp"
#include "runtime/buffer_commands.hpp"
#include "runtime/context.hpp"
#include "runtime/host_command.hpp"

#include <cstring>

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

constexpr cl_svm_mem_flags kAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr size_t kMaxAlignment = 4096;

bool powerOfTwo(size_t v) { return v && !(v & (v - 1)); }

} // namespace

extern "C" {

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             cl_uint alignment) {
  // Returns NULL for an invalid context, invalid flags (exclusive access flags,
  // CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER), a size of 0 or above
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE, or an alignment that is not a power of two or larger
  // than the largest supported (4096).
  Context *ctx = Context::fromHandle(context);
  if (!ctx)
    return nullptr;
  if (flags & ~(kAccess | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS))
    return nullptr;
  cl_svm_mem_flags access = flags & kAccess;
  if (access & (access - 1))
    return nullptr;
  if ((flags & CL_MEM_SVM_ATOMICS) && !(flags & CL_MEM_SVM_FINE_GRAIN_BUFFER))
    return nullptr;
  if (size == 0 || size > ctx->device().maxAllocSize())
    return nullptr;
  size_t align = alignment ? alignment : ctx->device().limits().memBaseAddrAlignBits / 8;
  if (!powerOfTwo(align) || align > kMaxAlignment)
    return nullptr;
  return ctx->svm().allocate(size, align, flags);
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  // No error is reported: an invalid context or a pointer clSVMAlloc did not return
  // for it is ignored.
  if (Context *ctx = Context::fromHandle(context); ctx && svm_pointer)
    ctx->svm().free(svm_pointer);
}

cl_int CL_API_CALL clEnqueueSVMFree(
    cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void *[], void *), void *user_data,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL, or if
    // svm_pointers is NULL and num_svm_pointers is not 0.
    check((num_svm_pointers == 0) != (svm_pointers == nullptr), CL_INVALID_VALUE,
          "num_svm_pointers and svm_pointers disagree");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    std::vector<void *> pointers(svm_pointers, svm_pointers + num_svm_pointers);
    Context *ctx = &q.context();
    cl_command_queue queue = command_queue;
    auto cmd = hostCommand([ctx, queue, pointers, pfn_free_func, user_data]() mutable -> cl_int {
      if (pfn_free_func)
        pfn_free_func(queue, static_cast<cl_uint>(pointers.size()), pointers.data(), user_data);
      else
        for (void *p : pointers)
          ctx->svm().free(p);
      return CL_COMPLETE;
    });
    submit(q, CL_COMMAND_SVM_FREE, std::move(cmd), wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                      void *dst_ptr, const void *src_ptr, size_t size,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if dst_ptr or src_ptr is NULL.
    check(!dst_ptr || !src_ptr, CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
    // CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result
    // in an overlapping copy.
    const char *s = static_cast<const char *>(src_ptr);
    char *d = static_cast<char *>(dst_ptr);
    check(s < d + size && d < s + size, CL_MEM_COPY_OVERLAP, "source and destination overlap");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    auto cmd = copyBytesCommand(nullptr, nullptr, d, s, size);
    submit(q, CL_COMMAND_SVM_MEMCPY, std::move(cmd), wait, event, blocking_copy);
  });
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                       const void *pattern, size_t pattern_size, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if svm_ptr is NULL or not aligned to pattern_size, if pattern
    // is NULL, pattern_size is 0 or not one of {1, 2, 4, ..., 128}, or size is not a
    // multiple of pattern_size.
    check(!svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    check(!pattern, CL_INVALID_VALUE, "pattern is NULL");
    check(!powerOfTwo(pattern_size) || pattern_size > 128, CL_INVALID_VALUE,
          "pattern_size must be a power of two up to 128");
    check(reinterpret_cast<uintptr_t>(svm_ptr) % pattern_size != 0, CL_INVALID_VALUE,
          "svm_ptr is not aligned to pattern_size");
    check(size % pattern_size != 0, CL_INVALID_VALUE, "size is not a multiple of pattern_size");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    auto cmd = fillCommand(nullptr, static_cast<char *>(svm_ptr), size, pattern, pattern_size);
    submit(q, CL_COMMAND_SVM_MEMFILL, std::move(cmd), wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                   cl_map_flags flags, void *svm_ptr, size_t size,
                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                   cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if svm_ptr is NULL, size is 0 or flags are not valid.
    check(!svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    check(size == 0, CL_INVALID_VALUE, "size is 0");
    constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    check(flags & ~known, CL_INVALID_VALUE, "flags has unknown bits");
    check((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)),
          CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with READ or WRITE");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    submit(q, CL_COMMAND_SVM_MAP, nullptr, wait, event, blocking_map);
  });
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    check(!svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    submit(q, CL_COMMAND_SVM_UNMAP, nullptr, wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL, or if
    // flags are not valid.
    check(num_svm_pointers == 0 || !svm_pointers, CL_INVALID_VALUE, "no SVM pointers");
    for (cl_uint i = 0; i < num_svm_pointers; ++i)
      check(!svm_pointers[i], CL_INVALID_VALUE, "an SVM pointer is NULL");
    check(flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                          CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
          CL_INVALID_VALUE, "flags");
    (void)sizes;
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    // One memory: nothing moves.
    submit(q, CL_COMMAND_SVM_MIGRATE_MEM, nullptr, wait, event, false);
  });
}

} // extern "C"
