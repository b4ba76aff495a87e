// Entry points of optional features the device does not report (images, samplers,
// pipes, SVM): present in the dispatch table, returning the errors the specification
// gives for a device without them.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/memory.hpp"
#include "runtime/queue.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

[[noreturn]] void noImages() {
  // CL_INVALID_OPERATION if there are no devices in context that support images.
  throw Error(CL_INVALID_OPERATION, "the device has no image support");
}

[[noreturn]] void notAnImage(const char *name) {
  // CL_INVALID_MEM_OBJECT if image is not a valid image object (none can exist).
  throw Error(CL_INVALID_MEM_OBJECT, std::string(name) + " is not an image object");
}

[[noreturn]] void noSvm() {
  // CL_INVALID_OPERATION if the device associated with command_queue does not
  // support SVM (CL_DEVICE_SVM_CAPABILITIES is 0).
  throw Error(CL_INVALID_OPERATION, "the device has no SVM support");
}

} // namespace

extern "C" {

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_row_pitch,
                                   void *host_ptr, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_mem {
    obj<Context>(context, "context");
    noImages();
  });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_depth,
                                   size_t image_row_pitch, size_t image_slice_pitch,
                                   void *host_ptr, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_mem {
    obj<Context>(context, "context");
    noImages();
  });
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *image_format,
                                 const cl_image_desc *image_desc, void *host_ptr,
                                 cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_mem {
    obj<Context>(context, "context");
    noImages();
  });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties *properties,
                                               cl_mem_flags flags,
                                               const cl_image_format *image_format,
                                               const cl_image_desc *image_desc,
                                               void *host_ptr, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_mem {
    obj<Context>(context, "context");
    noImages();
  });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type,
                                              cl_uint num_entries,
                                              cl_image_format *image_formats,
                                              cl_uint *num_image_formats) {
  return call(__func__, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    obj<Context>(context, "context");
    // CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0
    // and image_formats is not NULL.
    switch (image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      break;
    default:
      throw Error(CL_INVALID_VALUE, "image_type is not an image type");
    }
    check(num_entries == 0 && image_formats, CL_INVALID_VALUE,
          "num_entries is 0 and image_formats is not NULL");
    // No image support: no formats.
    if (num_image_formats)
      *num_image_formats = 0;
  });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
                                  size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret) {
  return call(__func__, [&] { notAnImage("image"); });
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_sampler {
    obj<Context>(context, "context");
    noImages();
  });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties,
    cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_sampler {
    obj<Context>(context, "context");
    noImages();
  });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return call(__func__, [&] { throw Error(CL_INVALID_SAMPLER, "no samplers exist"); });
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return call(__func__, [&] { throw Error(CL_INVALID_SAMPLER, "no samplers exist"); });
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  return call(__func__, [&] { throw Error(CL_INVALID_SAMPLER, "no samplers exist"); });
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                      cl_bool blocking_read, const size_t *origin,
                                      const size_t *region, size_t row_pitch,
                                      size_t slice_pitch, void *ptr,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    notAnImage("image");
  });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                       cl_bool blocking_write, const size_t *origin,
                                       const size_t *region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void *ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    notAnImage("image");
  });
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                      cl_mem dst_image, const size_t *src_origin,
                                      const size_t *dst_origin, const size_t *region,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    notAnImage("src_image");
  });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                      const void *fill_color, const size_t *origin,
                                      const size_t *region,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    notAnImage("image");
  });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue,
                                              cl_mem src_image, cl_mem dst_buffer,
                                              const size_t *src_origin,
                                              const size_t *region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list,
                                              cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    notAnImage("src_image");
  });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue,
                                              cl_mem src_buffer, cl_mem dst_image,
                                              size_t src_offset, const size_t *dst_origin,
                                              const size_t *region,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list,
                                              cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    obj<Mem>(src_buffer, "src_buffer");
    notAnImage("dst_image");
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
    obj<Queue>(command_queue, "command_queue");
    notAnImage("image");
  });
}

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags,
                                cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                                const cl_pipe_properties *properties,
                                cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_mem {
    obj<Context>(context, "context");
    // CL_INVALID_OPERATION if no devices in context support pipes.
    throw Error(CL_INVALID_OPERATION, "the device has no pipe support");
  });
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                 size_t param_value_size, void *param_value,
                                 size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
    throw Error(CL_INVALID_MEM_OBJECT, "pipe is not a pipe object");
  });
}

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             cl_uint alignment) {
  // Returns NULL: no device in context supports SVM.
  return nullptr;
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  // Nothing can have been allocated by clSVMAlloc.
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                    void *svm_pointers[],
                                    void(CL_CALLBACK *pfn_free_func)(cl_command_queue,
                                                                     cl_uint, void *[],
                                                                     void *),
                                    void *user_data, cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                      void *dst_ptr, const void *src_ptr, size_t size,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                       const void *pattern, size_t pattern_size,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                   cl_map_flags flags, void *svm_ptr, size_t size,
                                   cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event *event_wait_list, cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue,
                                          cl_uint num_svm_pointers,
                                          const void **svm_pointers, const size_t *sizes,
                                          cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event *event_wait_list,
                                          cl_event *event) {
  return call(__func__, [&] {
    obj<Queue>(command_queue, "command_queue");
    noSvm();
  });
}

} // extern "C"
