// Entry points that enqueue buffer commands: read, write, copy, fill (and their
// rectangular forms), map, unmap, migrate.
#include "runtime/api/enqueue.hpp"
#include "runtime/api/mem_rules.hpp"
#include "runtime/buffer_commands.hpp"
#include "runtime/context.hpp"
#include "runtime/memory.hpp"

#include <array>
#include <cstring>

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

// A memory object (buffer or image) of the queue's context.
Mem &memOf(Queue &q, cl_mem handle, const char *name) {
  Mem &m = obj<Mem>(handle, name);
  // CL_INVALID_CONTEXT if the context associated with command_queue and the memory
  // object are not the same.
  check(&m.context() != &q.context(), CL_INVALID_CONTEXT,
        "the memory object and the queue belong to different contexts");
  return m;
}

// A buffer of the queue's context.
Mem &bufferOf(Queue &q, cl_mem handle, const char *name) {
  // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
  Mem &m = memOf(q, handle, name);
  check(!m.isBuffer(), CL_INVALID_MEM_OBJECT,
        (std::string(name) + " is an image or a pipe, not a buffer").c_str());
  return m;
}

void checkRange(const Mem &m, size_t offset, size_t size, const char *what) {
  check(offset > m.size() || size > m.size() - offset, CL_INVALID_VALUE, what);
}

// Applies the defaults (0 = tightly packed) and the pitch rules of the *Rect calls:
// CL_INVALID_VALUE if any region array element is 0, if row_pitch is not 0 and is
// less than region[0], or if slice_pitch is not 0 and is less than
// region[1] * row_pitch or not a multiple of row_pitch.
Pitches pitches(const size_t *region, size_t row, size_t slice, const char *what) {
  if (row == 0)
    row = region[0];
  check(row < region[0], CL_INVALID_VALUE, what);
  if (slice == 0)
    slice = region[1] * row;
  check(slice < region[1] * row || slice % row != 0, CL_INVALID_VALUE, what);
  return {row, slice};
}

size_t rectOffset(const size_t *origin, Pitches p) {
  return origin[2] * p.slice + origin[1] * p.row + origin[0];
}
size_t rectEnd(const size_t *origin, const size_t *region, Pitches p) {
  return rectOffset(origin, p) + (region[2] - 1) * p.slice + (region[1] - 1) * p.row + region[0];
}

void checkRegion(const size_t *region) {
  check(!region, CL_INVALID_VALUE, "region is NULL");
  check(region[0] == 0 || region[1] == 0 || region[2] == 0, CL_INVALID_VALUE,
        "a region element is 0");
}

std::array<size_t, 3> arr(const size_t *r) { return {r[0], r[1], r[2]}; }

bool overlaps(const char *a, size_t an, const char *b, size_t bn) {
  return a < b + bn && b < a + an;
}

} // namespace

extern "C" {

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_read, size_t offset, size_t size, void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = bufferOf(q, buffer, "buffer");
    // CL_INVALID_VALUE if the region being read specified by (offset, size) is out
    // of bounds or if ptr is a NULL value.
    checkRange(m, offset, size, "(offset, size) is outside the buffer");
    check(!ptr, CL_INVALID_VALUE, "ptr is NULL");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkHostRead(m);
    const char *src = m.data() + offset;
    auto cmd = copyBytesCommand(Ref<Mem>(m), nullptr, ptr, src, size);
    submit(q, CL_COMMAND_READ_BUFFER, std::move(cmd), wait, event, blocking_read);
  });
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                        cl_bool blocking_write, size_t offset, size_t size,
                                        const void *ptr, cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = bufferOf(q, buffer, "buffer");
    // CL_INVALID_VALUE if the region being written specified by (offset, size) is
    // out of bounds or if ptr is a NULL value.
    checkRange(m, offset, size, "(offset, size) is outside the buffer");
    check(!ptr, CL_INVALID_VALUE, "ptr is NULL");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkHostWrite(m);
    char *dst = m.data() + offset;
    auto cmd = copyBytesCommand(Ref<Mem>(m), nullptr, dst, ptr, size);
    submit(q, CL_COMMAND_WRITE_BUFFER, std::move(cmd), wait, event, blocking_write);
  });
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &src = bufferOf(q, src_buffer, "src_buffer");
    Mem &dst = bufferOf(q, dst_buffer, "dst_buffer");
    // CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or
    // dst_offset + size require accessing elements outside the buffers.
    checkRange(src, src_offset, size, "(src_offset, size) is outside src_buffer");
    checkRange(dst, dst_offset, size, "(dst_offset, size) is outside dst_buffer");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    const char *from = src.data() + src_offset;
    char *to = dst.data() + dst_offset;
    // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
    // sub-buffer object (or sub-buffers of the same buffer) and the source and
    // destination regions overlap.
    check(overlaps(from, size, to, size), CL_MEM_COPY_OVERLAP, "source and destination overlap");
    auto cmd = copyBytesCommand(Ref<Mem>(src), Ref<Mem>(dst), to, from, size);
    submit(q, CL_COMMAND_COPY_BUFFER, std::move(cmd), wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       const void *pattern, size_t pattern_size, size_t offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = bufferOf(q, buffer, "buffer");
    // CL_INVALID_VALUE if offset or offset + size require accessing elements outside
    // the buffer object.
    checkRange(m, offset, size, "(offset, size) is outside the buffer");
    // CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0 or if
    // pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }.
    check(!pattern, CL_INVALID_VALUE, "pattern is NULL");
    check(pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)),
          CL_INVALID_VALUE, "pattern_size must be a power of two up to 128");
    // CL_INVALID_VALUE if offset and size are not a multiple of pattern_size.
    check(offset % pattern_size || size % pattern_size, CL_INVALID_VALUE,
          "offset and size must be multiples of pattern_size");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    auto cmd = fillCommand(Ref<Mem>(m), m.data() + offset, size, pattern, pattern_size);
    submit(q, CL_COMMAND_FILL_BUFFER, std::move(cmd), wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                           cl_bool blocking_read, const size_t *buffer_origin,
                                           const size_t *host_origin, const size_t *region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           void *ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = bufferOf(q, buffer, "buffer");
    check(!buffer_origin || !host_origin, CL_INVALID_VALUE, "an origin is NULL");
    checkRegion(region);
    Pitches bp = pitches(region, buffer_row_pitch, buffer_slice_pitch, "buffer pitches");
    Pitches hp = pitches(region, host_row_pitch, host_slice_pitch, "host pitches");
    // CL_INVALID_VALUE if the region being read specified by (buffer_origin, region,
    // buffer_row_pitch, buffer_slice_pitch) is out of bounds; if ptr is NULL.
    check(rectEnd(buffer_origin, region, bp) > m.size(), CL_INVALID_VALUE,
          "the region is outside the buffer");
    check(!ptr, CL_INVALID_VALUE, "ptr is NULL");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkHostRead(m);
    const char *src = m.data() + rectOffset(buffer_origin, bp);
    char *dst = static_cast<char *>(ptr) + rectOffset(host_origin, hp);
    auto cmd = copyRectCommand(Ref<Mem>(m), nullptr, dst, hp, src, bp, arr(region));
    submit(q, CL_COMMAND_READ_BUFFER_RECT, std::move(cmd), wait, event, blocking_read);
  });
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t *buffer_origin,
                                            const size_t *host_origin, const size_t *region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void *ptr, cl_uint num_events_in_wait_list,
                                            const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = bufferOf(q, buffer, "buffer");
    check(!buffer_origin || !host_origin, CL_INVALID_VALUE, "an origin is NULL");
    checkRegion(region);
    Pitches bp = pitches(region, buffer_row_pitch, buffer_slice_pitch, "buffer pitches");
    Pitches hp = pitches(region, host_row_pitch, host_slice_pitch, "host pitches");
    // CL_INVALID_VALUE if the region being written is out of bounds; ptr is NULL.
    check(rectEnd(buffer_origin, region, bp) > m.size(), CL_INVALID_VALUE,
          "the region is outside the buffer");
    check(!ptr, CL_INVALID_VALUE, "ptr is NULL");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkHostWrite(m);
    char *dst = m.data() + rectOffset(buffer_origin, bp);
    const char *src = static_cast<const char *>(ptr) + rectOffset(host_origin, hp);
    auto cmd = copyRectCommand(Ref<Mem>(m), nullptr, dst, bp, src, hp, arr(region));
    submit(q, CL_COMMAND_WRITE_BUFFER_RECT, std::move(cmd), wait, event, blocking_write);
  });
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t *src_origin,
                                           const size_t *dst_origin, const size_t *region,
                                           size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &src = bufferOf(q, src_buffer, "src_buffer");
    Mem &dst = bufferOf(q, dst_buffer, "dst_buffer");
    check(!src_origin || !dst_origin, CL_INVALID_VALUE, "an origin is NULL");
    checkRegion(region);
    Pitches sp = pitches(region, src_row_pitch, src_slice_pitch, "source pitches");
    Pitches dp = pitches(region, dst_row_pitch, dst_slice_pitch, "destination pitches");
    // CL_INVALID_VALUE if (src_origin, region, src_row_pitch, src_slice_pitch) or
    // (dst_origin, region, dst_row_pitch, dst_slice_pitch) require accessing
    // elements outside the buffers.
    check(rectEnd(src_origin, region, sp) > src.size(), CL_INVALID_VALUE,
          "the source region is outside src_buffer");
    check(rectEnd(dst_origin, region, dp) > dst.size(), CL_INVALID_VALUE,
          "the destination region is outside dst_buffer");
    // CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object and
    // src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not
    // equal to dst_row_pitch.
    check(&src == &dst && sp.slice != dp.slice && sp.row != dp.row, CL_INVALID_VALUE,
          "same buffer with different pitches");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    const char *from = src.data() + rectOffset(src_origin, sp);
    char *to = dst.data() + rectOffset(dst_origin, dp);
    // CL_MEM_COPY_OVERLAP if the source and destination regions overlap in the same
    // buffer (or sub-buffers of one buffer).
    bool overlap;
    if (src.data() == dst.data() && sp.row == dp.row && sp.slice == dp.slice) {
      overlap = true; // boxes in the same coordinate system: intersect per axis
      for (int d = 0; d < 3; ++d)
        overlap &=
            src_origin[d] < dst_origin[d] + region[d] && dst_origin[d] < src_origin[d] + region[d];
    } else {
      overlap = overlaps(from, rectEnd(src_origin, region, sp) - rectOffset(src_origin, sp), to,
                         rectEnd(dst_origin, region, dp) - rectOffset(dst_origin, dp));
    }
    check(overlap, CL_MEM_COPY_OVERLAP, "source and destination overlap");
    auto cmd = copyRectCommand(Ref<Mem>(src), Ref<Mem>(dst), to, dp, from, sp, arr(region));
    submit(q, CL_COMMAND_COPY_BUFFER_RECT, std::move(cmd), wait, event, false);
  });
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                     size_t size, cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event,
                                     cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> void * {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = bufferOf(q, buffer, "buffer");
    // CL_INVALID_VALUE if region being mapped given by (offset, size) is out of
    // bounds or if size is 0 or if values specified in map_flags are not valid.
    checkRange(m, offset, size, "(offset, size) is outside the buffer");
    check(size == 0, CL_INVALID_VALUE, "size is 0");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkMapFlags(map_flags, m);
    // Zero-copy: the mapped region is the buffer itself (for CL_MEM_USE_HOST_PTR,
    // the application's memory, as the specification requires).
    submit(q, CL_COMMAND_MAP_BUFFER, nullptr, wait, event, blocking_map);
    m.mapped();
    return m.data() + offset;
  });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                           void *mapped_ptr, cl_uint num_events_in_wait_list,
                                           const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = memOf(q, memobj, "memobj");
    // CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
    // clEnqueueMapBuffer or clEnqueueMapImage for memobj.
    char *p = static_cast<char *>(mapped_ptr);
    check(!p || p < m.data() || p >= m.data() + m.size() || m.mapCount() == 0, CL_INVALID_VALUE,
          "mapped_ptr was not mapped from memobj");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    m.unmapped();
    submit(q, CL_COMMAND_UNMAP_MEM_OBJECT, nullptr, wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                              cl_uint num_mem_objects, const cl_mem *mem_objects,
                                              cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    // CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL.
    check(num_mem_objects == 0 || !mem_objects, CL_INVALID_VALUE, "no memory objects");
    // CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a
    // valid memory object; CL_INVALID_CONTEXT if their contexts differ.
    for (cl_uint i = 0; i < num_mem_objects; ++i)
      memOf(q, mem_objects[i], "mem_objects[i]");
    // CL_INVALID_VALUE if flags is not 0 or is not any of the values described.
    check(flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                          CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED),
          CL_INVALID_VALUE, "flags");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    // Host and device share memory: nothing moves.
    submit(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, nullptr, wait, event, false);
  });
}

} // extern "C"
