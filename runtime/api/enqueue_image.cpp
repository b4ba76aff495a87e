// Entry points that enqueue image commands: read, write, copy (between images and
// with buffers), fill, map. An image is a pitched box of pixels (ImageLayout), so each
// becomes a byte-box copy or fill (runtime/buffer_commands.hpp).
#include "runtime/api/enqueue.hpp"
#include "runtime/api/mem_rules.hpp"
#include "runtime/buffer_commands.hpp"
#include "runtime/context.hpp"
#include "runtime/image_format.hpp"
#include "runtime/memory.hpp"

#include <array>
#include <cstring>
#include <string>

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

// An image of the queue's context.
Mem &imageOf(Queue &q, cl_mem handle, const char *name) {
  // CL_INVALID_MEM_OBJECT if image is not a valid image object.
  Mem &m = obj<Mem>(handle, name);
  check(!m.image(), CL_INVALID_MEM_OBJECT, (std::string(name) + " is not an image").c_str());
  // CL_INVALID_CONTEXT if the context associated with command_queue and image are not
  // the same.
  check(&m.context() != &q.context(), CL_INVALID_CONTEXT,
        "the image and the queue belong to different contexts");
  return m;
}

Mem &bufferOf(Queue &q, cl_mem handle, const char *name) {
  Mem &m = obj<Mem>(handle, name);
  check(m.image(), CL_INVALID_MEM_OBJECT, (std::string(name) + " is not a buffer").c_str());
  check(&m.context() != &q.context(), CL_INVALID_CONTEXT,
        "the buffer and the queue belong to different contexts");
  return m;
}

// CL_INVALID_VALUE if the region specified by origin and region is out of bounds, if
// origin or region is NULL, if a region element is 0, or if the unused coordinates of
// the image's type are not 0 (origin) and 1 (region).
void checkBox(const ImageLayout &l, const size_t *origin, const size_t *region, const char *what) {
  check(!origin || !region, CL_INVALID_VALUE, "origin or region is NULL");
  for (int d = 0; d < 3; ++d) {
    size_t extent = l.extent(d);
    check(region[d] == 0, CL_INVALID_VALUE, "a region element is 0");
    check(origin[d] >= extent || region[d] > extent - origin[d], CL_INVALID_VALUE, what);
  }
}

// The first byte of the box at `origin`, and its pitches.
char *boxStart(const Mem &m, const size_t *origin) {
  const ImageLayout &l = *m.image();
  return m.data() + origin[0] * l.pixelSize + origin[1] * l.yPitch() + origin[2] * l.zPitch();
}
Pitches imagePitches(const ImageLayout &l) { return {l.yPitch(), l.zPitch()}; }
std::array<size_t, 3> byteRegion(const ImageLayout &l, const size_t *region) {
  return {region[0] * l.pixelSize, region[1], region[2]};
}

// The host's layout of a read or write: row_pitch and slice_pitch with their defaults.
// A 1D image array's layers are slice_pitch apart (its "rows" in memory terms).
Pitches hostPitches(const ImageLayout &l, const size_t *region, size_t rowPitch,
                    size_t slicePitch) {
  size_t row = region[0] * l.pixelSize;
  if (rowPitch == 0)
    rowPitch = row;
  // CL_INVALID_VALUE if row_pitch is not 0 and less than a row of the region.
  check(rowPitch < row, CL_INVALID_VALUE, "row_pitch is smaller than a row of the region");
  bool oneDArray = l.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  size_t slice = oneDArray ? rowPitch : rowPitch * region[1];
  if (slicePitch == 0)
    slicePitch = slice;
  check(slicePitch < slice, CL_INVALID_VALUE, "slice_pitch is smaller than a slice of the region");
  if (oneDArray)
    return {slicePitch, slicePitch * region[1]};
  return {rowPitch, slicePitch};
}

bool boxesOverlap(const size_t *a, const size_t *b, const size_t *region) {
  for (int d = 0; d < 3; ++d)
    if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d])
      return false;
  return true;
}

} // namespace

extern "C" {

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                      cl_bool blocking_read, const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch,
                                      void *ptr, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = imageOf(q, image, "image");
    const ImageLayout &l = *m.image();
    checkBox(l, origin, region, "the region being read is outside the image");
    check(!ptr, CL_INVALID_VALUE, "ptr is NULL");
    Pitches host = hostPitches(l, region, row_pitch, slice_pitch);
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkHostRead(m);
    auto cmd = copyRectCommand(Ref<Mem>(m), nullptr, static_cast<char *>(ptr), host,
                               boxStart(m, origin), imagePitches(l), byteRegion(l, region));
    submit(q, CL_COMMAND_READ_IMAGE, std::move(cmd), wait, event, blocking_read);
  });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                       cl_bool blocking_write, const size_t *origin,
                                       const size_t *region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = imageOf(q, image, "image");
    const ImageLayout &l = *m.image();
    checkBox(l, origin, region, "the region being written is outside the image");
    check(!ptr, CL_INVALID_VALUE, "ptr is NULL");
    Pitches host = hostPitches(l, region, input_row_pitch, input_slice_pitch);
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkHostWrite(m);
    auto cmd = copyRectCommand(Ref<Mem>(m), nullptr, boxStart(m, origin), imagePitches(l),
                               static_cast<const char *>(ptr), host, byteRegion(l, region));
    submit(q, CL_COMMAND_WRITE_IMAGE, std::move(cmd), wait, event, blocking_write);
  });
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                      cl_mem dst_image, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &src = imageOf(q, src_image, "src_image");
    Mem &dst = imageOf(q, dst_image, "dst_image");
    const ImageLayout &sl = *src.image(), &dl = *dst.image();
    // CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same format.
    check(sl.format.image_channel_order != dl.format.image_channel_order ||
              sl.format.image_channel_data_type != dl.format.image_channel_data_type,
          CL_IMAGE_FORMAT_MISMATCH, "src_image and dst_image have different formats");
    checkBox(sl, src_origin, region, "the source region is outside src_image");
    checkBox(dl, dst_origin, region, "the destination region is outside dst_image");
    // CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and
    // the source and destination regions overlap.
    check(&src == &dst && boxesOverlap(src_origin, dst_origin, region), CL_MEM_COPY_OVERLAP,
          "source and destination overlap");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    auto cmd =
        copyRectCommand(Ref<Mem>(src), Ref<Mem>(dst), boxStart(dst, dst_origin), imagePitches(dl),
                        boxStart(src, src_origin), imagePitches(sl), byteRegion(sl, region));
    submit(q, CL_COMMAND_COPY_IMAGE, std::move(cmd), wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                      const void *fill_color, const size_t *origin,
                                      const size_t *region, cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = imageOf(q, image, "image");
    const ImageLayout &l = *m.image();
    // CL_INVALID_VALUE if fill_color is NULL or the region is out of bounds.
    check(!fill_color, CL_INVALID_VALUE, "fill_color is NULL");
    checkBox(l, origin, region, "the region being filled is outside the image");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    unsigned char pixel[16];
    encodePixel(l.format, fill_color, pixel);
    auto cmd = fillRectCommand(Ref<Mem>(m), boxStart(m, origin), imagePitches(l), pixel,
                               l.pixelSize, byteRegion(l, region));
    submit(q, CL_COMMAND_FILL_IMAGE, std::move(cmd), wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                              cl_mem dst_buffer, const size_t *src_origin,
                                              const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &src = imageOf(q, src_image, "src_image");
    Mem &dst = bufferOf(q, dst_buffer, "dst_buffer");
    const ImageLayout &l = *src.image();
    checkBox(l, src_origin, region, "the source region is outside src_image");
    // CL_INVALID_VALUE if dst_offset + the region's size is outside dst_buffer.
    size_t bytes = region[0] * region[1] * region[2] * l.pixelSize;
    check(dst_offset > dst.size() || bytes > dst.size() - dst_offset, CL_INVALID_VALUE,
          "the destination region is outside dst_buffer");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    size_t row = region[0] * l.pixelSize;
    auto cmd = copyRectCommand(Ref<Mem>(src), Ref<Mem>(dst), dst.data() + dst_offset,
                               Pitches{row, row * region[1]}, boxStart(src, src_origin),
                               imagePitches(l), byteRegion(l, region));
    submit(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, std::move(cmd), wait, event, false);
  });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                              cl_mem dst_image, size_t src_offset,
                                              const size_t *dst_origin, const size_t *region,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &src = bufferOf(q, src_buffer, "src_buffer");
    Mem &dst = imageOf(q, dst_image, "dst_image");
    const ImageLayout &l = *dst.image();
    checkBox(l, dst_origin, region, "the destination region is outside dst_image");
    size_t bytes = region[0] * region[1] * region[2] * l.pixelSize;
    check(src_offset > src.size() || bytes > src.size() - src_offset, CL_INVALID_VALUE,
          "the source region is outside src_buffer");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    size_t row = region[0] * l.pixelSize;
    auto cmd = copyRectCommand(Ref<Mem>(src), Ref<Mem>(dst), boxStart(dst, dst_origin),
                               imagePitches(l), src.data() + src_offset,
                               Pitches{row, row * region[1]}, byteRegion(l, region));
    submit(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, std::move(cmd), wait, event, false);
  });
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                    cl_bool blocking_map, cl_map_flags map_flags,
                                    const size_t *origin, const size_t *region,
                                    size_t *image_row_pitch, size_t *image_slice_pitch,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event,
                                    cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> void * {
    Queue &q = obj<Queue>(command_queue, "command_queue");
    Mem &m = imageOf(q, image, "image");
    const ImageLayout &l = *m.image();
    checkBox(l, origin, region, "the region being mapped is outside the image");
    // CL_INVALID_VALUE if image_row_pitch is NULL, or image_slice_pitch is NULL for a
    // 3D image or an image array.
    check(!image_row_pitch, CL_INVALID_VALUE, "image_row_pitch is NULL");
    bool hasSlices = l.type == CL_MEM_OBJECT_IMAGE3D || l.isArray();
    check(hasSlices && !image_slice_pitch, CL_INVALID_VALUE, "image_slice_pitch is NULL");
    auto wait = waitList(num_events_in_wait_list, event_wait_list, &q.context());
    checkMapFlags(map_flags, m);
    // Zero-copy, as for buffers: the mapped pixels are the image's own.
    submit(q, CL_COMMAND_MAP_IMAGE, nullptr, wait, event, blocking_map);
    m.mapped();
    *image_row_pitch = l.rowPitch;
    if (image_slice_pitch)
      *image_slice_pitch = l.slicePitch;
    return boxStart(m, origin);
  });
}

} // extern "C"
