// Commands on delegated devices. Handles are translated; a blocking command is
// enqueued non-blocking and waited on through FiberCL's timed wait, so a command that
// never completes is reported (timed_wait.cpp) instead of hanging the caller; every
// kernel launch is remembered for that report.
#include <string>

#include "delegate/forward.hpp"

namespace fibercl::delegate {
namespace {

cl_command_queue real(Queue *q) { return static_cast<cl_command_queue>(q->real); }

// After the vendor's enqueue: waits if the call was blocking, then gives the
// application its event.
cl_int complete(Queue *q, cl_int err, EventOut &ev, bool blocking, const char *what) {
  if (err != CL_SUCCESS)
    return err;
  if (blocking && !waitOrReport(q, ev.vendor, what, /*drains=*/q->inOrder))
    return CL_OUT_OF_RESOURCES; // reported; no event for a failed call
  ev.finish(q);
  return CL_SUCCESS;
}

std::vector<cl_mem> realMems(cl_uint n, const cl_mem *list, bool &ok) {
  std::vector<cl_mem> out;
  ok = true;
  for (cl_uint i = 0; list && i < n; ++i) {
    cl_mem m = realMem(list[i]);
    ok = ok && m;
    out.push_back(m);
  }
  return out;
}

struct SvmFreeNotify {
  void(CL_CALLBACK *pfn)(cl_command_queue, cl_uint, void **, void *);
  void *userData;
  Obj *queue;
  static void CL_CALLBACK call(cl_command_queue, cl_uint n, void **ptrs, void *self) {
    auto *s = static_cast<SvmFreeNotify *>(self);
    s->pfn(reinterpret_cast<cl_command_queue>(s->queue), n, ptrs, s->userData);
    unhold(s->queue);
    delete s;
  }
};

} // namespace

// The common start of every enqueue: the queue, the wait list, the event.
#define FWD_QUEUE_AND_WAIT_LIST(blocking)                                                          \
  auto *q = as<Queue>(command_queue, Tag::DelegatedQueue);                                         \
  if (!q)                                                                                          \
    return CL_INVALID_COMMAND_QUEUE;                                                               \
  WaitList wl(num_events_in_wait_list, event_wait_list);                                           \
  if (wl.error)                                                                                    \
    return wl.error;                                                                               \
  EventOut ev(event, blocking);                                                                    \
  const cl_icd_dispatch &vendor = q->vendor()

#define FWD_MEM(var, m)                                                                            \
  cl_mem var = realMem(m);                                                                         \
  if (!var)                                                                                        \
  return CL_INVALID_MEM_OBJECT

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_read, size_t offset, size_t size, void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_read);
  FWD_MEM(b, buffer);
  cl_int err = vendor.clEnqueueReadBuffer(real(q), b, CL_FALSE, offset, size, ptr, wl.count(),
                                          wl.data(), ev.slot());
  return complete(q, err, ev, blocking_read, "clEnqueueReadBuffer");
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                        cl_bool blocking_write, size_t offset, size_t size,
                                        const void *ptr, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_write);
  FWD_MEM(b, buffer);
  // Non-blocking writes may read `ptr` until the command completes: the application
  // keeps it valid, as the specification requires of it.
  cl_int err = vendor.clEnqueueWriteBuffer(real(q), b, CL_FALSE, offset, size, ptr, wl.count(),
                                           wl.data(), ev.slot());
  return complete(q, err, ev, blocking_write, "clEnqueueWriteBuffer");
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                           cl_bool blocking_read, const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           void *ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_read);
  FWD_MEM(b, buffer);
  cl_int err = vendor.clEnqueueReadBufferRect(
      real(q), b, CL_FALSE, buffer_origin, host_origin, region, buffer_row_pitch,
      buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, blocking_read, "clEnqueueReadBufferRect");
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void *ptr, cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_write);
  FWD_MEM(b, buffer);
  cl_int err = vendor.clEnqueueWriteBufferRect(
      real(q), b, CL_FALSE, buffer_origin, host_origin, region, buffer_row_pitch,
      buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, blocking_write, "clEnqueueWriteBufferRect");
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(src, src_buffer);
  FWD_MEM(dst, dst_buffer);
  cl_int err = vendor.clEnqueueCopyBuffer(real(q), src, dst, src_offset, dst_offset, size,
                                          wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueCopyBuffer");
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(src, src_buffer);
  FWD_MEM(dst, dst_buffer);
  cl_int err = vendor.clEnqueueCopyBufferRect(real(q), src, dst, src_origin, dst_origin, region,
                                              src_row_pitch, src_slice_pitch, dst_row_pitch,
                                              dst_slice_pitch, wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueCopyBufferRect");
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       const void *pattern, size_t pattern_size, size_t offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(b, buffer);
  if (!vendor.clEnqueueFillBuffer)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueFillBuffer(real(q), b, pattern, pattern_size, offset, size,
                                          wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueFillBuffer");
}

namespace {

// clEnqueueMapBuffer and clEnqueueMapImage around the vendor's (non-blocking) call
// `enqueue(queue, vendorMem, waitList, eventSlot, &err)`.
template <class Enqueue>
void *forwardMap(cl_command_queue command_queue, cl_mem memobj, cl_bool blocking,
                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event,
                 cl_int *errcode_ret, const char *what, Enqueue enqueue) {
  auto *q = as<Queue>(command_queue, Tag::DelegatedQueue);
  if (!q)
    return withError<void *>(errcode_ret, CL_INVALID_COMMAND_QUEUE, nullptr);
  WaitList wl(num_events_in_wait_list, event_wait_list);
  if (wl.error)
    return withError<void *>(errcode_ret, wl.error, nullptr);
  cl_mem m = realMem(memobj);
  if (!m)
    return withError<void *>(errcode_ret, CL_INVALID_MEM_OBJECT, nullptr);
  EventOut ev(event, blocking);
  cl_int err = CL_SUCCESS;
  void *p = enqueue(q, m, wl, ev.slot(), &err);
  err = complete(q, err, ev, blocking, what);
  return withError(errcode_ret, err, err == CL_SUCCESS ? p : nullptr);
}

} // namespace

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                     size_t size, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event,
                                     cl_int *errcode_ret) {
  return forwardMap(command_queue, buffer, blocking_map, num_events_in_wait_list, event_wait_list,
                    event, errcode_ret, "clEnqueueMapBuffer",
                    [&](Queue *q, cl_mem m, const WaitList &wl, cl_event *slot, cl_int *err) {
                      return q->vendor().clEnqueueMapBuffer(real(q), m, CL_FALSE, map_flags, offset,
                                                            size, wl.count(), wl.data(), slot, err);
                    });
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                    cl_bool blocking_map, cl_map_flags map_flags,
                                    const size_t *origin, const size_t *region,
                                    size_t *image_row_pitch, size_t *image_slice_pitch,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event,
                                    cl_int *errcode_ret) {
  return forwardMap(command_queue, image, blocking_map, num_events_in_wait_list, event_wait_list,
                    event, errcode_ret, "clEnqueueMapImage",
                    [&](Queue *q, cl_mem m, const WaitList &wl, cl_event *slot, cl_int *err) {
                      return q->vendor().clEnqueueMapImage(
                          real(q), m, CL_FALSE, map_flags, origin, region, image_row_pitch,
                          image_slice_pitch, wl.count(), wl.data(), slot, err);
                    });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                           void *mapped_ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(m, memobj);
  cl_int err =
      vendor.clEnqueueUnmapMemObject(real(q), m, mapped_ptr, wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueUnmapMemObject");
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                              cl_uint num_mem_objects, const cl_mem *mem_objects,
                                              cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  bool ok = true;
  std::vector<cl_mem> mems = realMems(num_mem_objects, mem_objects, ok);
  if (!ok)
    return CL_INVALID_MEM_OBJECT;
  if (!vendor.clEnqueueMigrateMemObjects)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueMigrateMemObjects(real(q), num_mem_objects,
                                                 mem_objects ? mems.data() : nullptr, flags,
                                                 wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueMigrateMemObjects");
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                      cl_bool blocking_read, const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch,
                                      void *ptr, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_read);
  FWD_MEM(m, image);
  cl_int err = vendor.clEnqueueReadImage(real(q), m, CL_FALSE, origin, region, row_pitch,
                                         slice_pitch, ptr, wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, blocking_read, "clEnqueueReadImage");
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                       cl_bool blocking_write, const size_t *origin,
                                       const size_t *region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_write);
  FWD_MEM(m, image);
  cl_int err = vendor.clEnqueueWriteImage(real(q), m, CL_FALSE, origin, region, input_row_pitch,
                                          input_slice_pitch, ptr, wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, blocking_write, "clEnqueueWriteImage");
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                      cl_mem dst_image, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(src, src_image);
  FWD_MEM(dst, dst_image);
  cl_int err = vendor.clEnqueueCopyImage(real(q), src, dst, src_origin, dst_origin, region,
                                         wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueCopyImage");
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                              cl_mem dst_buffer, const size_t *src_origin,
                                              const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(src, src_image);
  FWD_MEM(dst, dst_buffer);
  cl_int err = vendor.clEnqueueCopyImageToBuffer(real(q), src, dst, src_origin, region, dst_offset,
                                                 wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueCopyImageToBuffer");
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                              cl_mem dst_image, size_t src_offset,
                                              const size_t *dst_origin, const size_t *region,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(src, src_buffer);
  FWD_MEM(dst, dst_image);
  cl_int err = vendor.clEnqueueCopyBufferToImage(real(q), src, dst, src_offset, dst_origin, region,
                                                 wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueCopyBufferToImage");
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                      const void *fill_color, const size_t *origin,
                                      const size_t *region, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  FWD_MEM(m, image);
  if (!vendor.clEnqueueFillImage)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueFillImage(real(q), m, fill_color, origin, region, wl.count(),
                                         wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueFillImage");
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t *global_work_offset,
                                          const size_t *global_work_size,
                                          const size_t *local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  auto *k = as<Kernel>(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  cl_int err = vendor.clEnqueueNDRangeKernel(real(q), static_cast<cl_kernel>(k->real), work_dim,
                                             global_work_offset, global_work_size, local_work_size,
                                             wl.count(), wl.data(), ev.slot());
  if (err == CL_SUCCESS && work_dim <= 3)
    rememberLaunch(q, k->name, work_dim, global_work_size, local_work_size);
  return complete(q, err, ev, false, "clEnqueueNDRangeKernel");
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                 cl_event *event) {
  const size_t one = 1;
  return delegate::clEnqueueNDRangeKernel(command_queue, kernel, 1, nullptr, &one, &one,
                                          num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                         void(CL_CALLBACK *user_func)(void *), void *args,
                                         size_t cb_args, cl_uint num_mem_objects,
                                         const cl_mem *mem_list, const void **args_mem_loc,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  bool ok = true;
  std::vector<cl_mem> mems = realMems(num_mem_objects, mem_list, ok);
  if (!ok)
    return CL_INVALID_MEM_OBJECT;
  // The memory objects' handles sit inside `args` at args_mem_loc: in a copy of args,
  // they become the vendor's, at the same offsets.
  std::vector<unsigned char> copy(static_cast<unsigned char *>(args),
                                  static_cast<unsigned char *>(args) + (args ? cb_args : 0));
  std::vector<const void *> locs;
  for (cl_uint i = 0; args && args_mem_loc && i < num_mem_objects; ++i) {
    size_t offset = static_cast<const unsigned char *>(args_mem_loc[i]) -
                    static_cast<const unsigned char *>(args);
    if (offset + sizeof(cl_mem) > cb_args)
      return CL_INVALID_VALUE;
    std::memcpy(copy.data() + offset, &mems[i], sizeof(cl_mem));
    locs.push_back(copy.data() + offset);
  }
  cl_int err = vendor.clEnqueueNativeKernel(
      real(q), user_func, args ? copy.data() : nullptr, cb_args, num_mem_objects,
      mem_list ? mems.data() : nullptr, args_mem_loc ? locs.data() : nullptr, wl.count(), wl.data(),
      ev.slot());
  return complete(q, err, ev, false, "clEnqueueNativeKernel");
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  cl_int err = vendor.clEnqueueMarkerWithWaitList(real(q), wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueMarkerWithWaitList");
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  cl_int err = vendor.clEnqueueBarrierWithWaitList(real(q), wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueBarrierWithWaitList");
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event) {
  auto *q = as<Queue>(command_queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  if (!event)
    return CL_INVALID_VALUE;
  EventOut ev(event);
  cl_int err = q->vendor().clEnqueueMarker(real(q), ev.slot());
  return complete(q, err, ev, false, "clEnqueueMarker");
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  auto *q = as<Queue>(command_queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  return q->vendor().clEnqueueBarrier(real(q));
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event *event_list) {
  auto *q = as<Queue>(command_queue, Tag::DelegatedQueue);
  if (!q)
    return CL_INVALID_COMMAND_QUEUE;
  if (num_events == 0 || !event_list)
    return CL_INVALID_VALUE;
  WaitList wl(num_events, event_list);
  if (wl.error)
    return CL_INVALID_EVENT;
  return q->vendor().clEnqueueWaitForEvents(real(q), wl.count(), wl.data());
}

cl_int CL_API_CALL clEnqueueSVMFree(
    cl_command_queue command_queue, cl_uint num_svm_pointers, void *svm_pointers[],
    void(CL_CALLBACK *pfn_free_func)(cl_command_queue, cl_uint, void **, void *), void *user_data,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  if (!vendor.clEnqueueSVMFree)
    return CL_INVALID_OPERATION;
  SvmFreeNotify *n = nullptr;
  if (pfn_free_func) {
    hold(q);
    n = new SvmFreeNotify{pfn_free_func, user_data, q};
  }
  cl_int err = vendor.clEnqueueSVMFree(real(q), num_svm_pointers, svm_pointers,
                                       n ? &SvmFreeNotify::call : nullptr, n, wl.count(), wl.data(),
                                       ev.slot());
  if (err != CL_SUCCESS && n) {
    unhold(q);
    delete n;
  }
  return complete(q, err, ev, false, "clEnqueueSVMFree");
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                      void *dst_ptr, const void *src_ptr, size_t size,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_copy);
  if (!vendor.clEnqueueSVMMemcpy)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueSVMMemcpy(real(q), CL_FALSE, dst_ptr, src_ptr, size, wl.count(),
                                         wl.data(), ev.slot());
  return complete(q, err, ev, blocking_copy, "clEnqueueSVMMemcpy");
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                       const void *pattern, size_t pattern_size, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  if (!vendor.clEnqueueSVMMemFill)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueSVMMemFill(real(q), svm_ptr, pattern, pattern_size, size, wl.count(),
                                          wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueSVMMemFill");
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                   cl_map_flags flags, void *svm_ptr, size_t size,
                                   cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
                                   cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(blocking_map);
  if (!vendor.clEnqueueSVMMap)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueSVMMap(real(q), CL_FALSE, flags, svm_ptr, size, wl.count(),
                                      wl.data(), ev.slot());
  return complete(q, err, ev, blocking_map, "clEnqueueSVMMap");
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  if (!vendor.clEnqueueSVMUnmap)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueSVMUnmap(real(q), svm_ptr, wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueSVMUnmap");
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list, cl_event *event) {
  FWD_QUEUE_AND_WAIT_LIST(false);
  if (!vendor.clEnqueueSVMMigrateMem)
    return CL_INVALID_OPERATION;
  cl_int err = vendor.clEnqueueSVMMigrateMem(real(q), num_svm_pointers, svm_pointers, sizes, flags,
                                             wl.count(), wl.data(), ev.slot());
  return complete(q, err, ev, false, "clEnqueueSVMMigrateMem");
}

} // namespace fibercl::delegate
