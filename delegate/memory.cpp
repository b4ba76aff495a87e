// Buffers, images, pipes, samplers and SVM allocations on delegated devices.
#include "delegate/forward.hpp"

namespace fibercl::delegate {
namespace {

cl_mem wrapMem(cl_mem real, cl_int err, Obj *context, Obj *parentBuffer, cl_int *errcode_ret) {
  if (!real)
    return withError<cl_mem>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, CL_SUCCESS,
                   reinterpret_cast<cl_mem>(wrap<Mem>(Tag::DelegatedMem, real, context->platform,
                                                      context, parentBuffer)));
}

// An image description with its buffer (image from buffer, 1-D image buffer) translated.
bool translateImageDesc(const cl_image_desc *desc, cl_image_desc &out) {
  if (!desc)
    return true;
  out = *desc;
  if (desc->mem_object) {
    out.mem_object = realMem(desc->mem_object);
    if (!out.mem_object)
      return false;
  }
  return true;
}

} // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void *host_ptr, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m =
      c->vendor().clCreateBuffer(static_cast<cl_context>(c->real), flags, size, host_ptr, &err);
  return wrapMem(m, err, c, nullptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  auto fn = c->vendor().clCreateBufferWithProperties;
  if (!fn)
    return withError<cl_mem>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m = fn(static_cast<cl_context>(c->real), properties, flags, size, host_ptr, &err);
  return wrapMem(m, err, c, nullptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                                     const void *info, cl_int *errcode_ret) {
  Obj *b = as(buffer, Tag::DelegatedMem);
  if (!b)
    return withError<cl_mem>(errcode_ret, CL_INVALID_MEM_OBJECT, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m = b->vendor().clCreateSubBuffer(static_cast<cl_mem>(b->real), flags, type, info, &err);
  return wrapMem(m, err, b->parents[0], b, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *format, const cl_image_desc *desc,
                                 void *host_ptr, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_image_desc real{};
  if (!translateImageDesc(desc, real))
    return withError<cl_mem>(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m = c->vendor().clCreateImage(static_cast<cl_context>(c->real), flags, format,
                                       desc ? &real : nullptr, host_ptr, &err);
  return wrapMem(m, err, c, desc ? findWrapper(real.mem_object) : nullptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties *properties,
                                               cl_mem_flags flags, const cl_image_format *format,
                                               const cl_image_desc *desc, void *host_ptr,
                                               cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  auto fn = c->vendor().clCreateImageWithProperties;
  if (!fn)
    return withError<cl_mem>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  cl_image_desc real{};
  if (!translateImageDesc(desc, real))
    return withError<cl_mem>(errcode_ret, CL_INVALID_IMAGE_DESCRIPTOR, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m = fn(static_cast<cl_context>(c->real), properties, flags, format, desc ? &real : nullptr,
                host_ptr, &err);
  return wrapMem(m, err, c, desc ? findWrapper(real.mem_object) : nullptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *format, size_t width, size_t height,
                                   size_t row_pitch, void *host_ptr, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m = c->vendor().clCreateImage2D(static_cast<cl_context>(c->real), flags, format, width,
                                         height, row_pitch, host_ptr, &err);
  return wrapMem(m, err, c, nullptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *format, size_t width, size_t height,
                                   size_t depth, size_t row_pitch, size_t slice_pitch,
                                   void *host_ptr, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m = c->vendor().clCreateImage3D(static_cast<cl_context>(c->real), flags, format, width,
                                         height, depth, row_pitch, slice_pitch, host_ptr, &err);
  return wrapMem(m, err, c, nullptr, errcode_ret);
}

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint packet_size,
                                cl_uint max_packets, const cl_pipe_properties *properties,
                                cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  auto fn = c->vendor().clCreatePipe;
  if (!fn)
    return withError<cl_mem>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  cl_int err = CL_SUCCESS;
  cl_mem m =
      fn(static_cast<cl_context>(c->real), flags, packet_size, max_packets, properties, &err);
  return wrapMem(m, err, c, nullptr, errcode_ret);
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param, size_t size, void *value,
                                 size_t *size_ret) {
  Obj *m = as(pipe, Tag::DelegatedMem);
  if (!m)
    return CL_INVALID_MEM_OBJECT;
  auto fn = m->vendor().clGetPipeInfo;
  return fn ? fn(static_cast<cl_mem>(m->real), param, size, value, size_ret)
            : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  Obj *m = as(memobj, Tag::DelegatedMem);
  if (!m)
    return CL_INVALID_MEM_OBJECT;
  appRetain(m);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  Obj *m = as(memobj, Tag::DelegatedMem);
  if (!m)
    return CL_INVALID_MEM_OBJECT;
  appRelease(m);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type type, cl_uint num_entries,
                                              cl_image_format *formats, cl_uint *num_formats) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return CL_INVALID_CONTEXT;
  return c->vendor().clGetSupportedImageFormats(static_cast<cl_context>(c->real), flags, type,
                                                num_entries, formats, num_formats);
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param, size_t size, void *value,
                                      size_t *size_ret) {
  Obj *m = as(memobj, Tag::DelegatedMem);
  if (!m)
    return CL_INVALID_MEM_OBJECT;
  switch (param) {
  case CL_MEM_CONTEXT:
    return answerScalar(reinterpret_cast<cl_context>(m->parents[0]), size, value, size_ret);
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return answerScalar(reinterpret_cast<cl_mem>(m->parents[1]), size, value, size_ret);
  case CL_MEM_REFERENCE_COUNT:
    return answerScalar<cl_uint>(m->refCount.load(), size, value, size_ret);
  default:
    return m->vendor().clGetMemObjectInfo(static_cast<cl_mem>(m->real), param, size, value,
                                          size_ret);
  }
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param, size_t size, void *value,
                                  size_t *size_ret) {
  Obj *m = as(image, Tag::DelegatedMem);
  if (!m)
    return CL_INVALID_MEM_OBJECT;
  if (param == CL_IMAGE_BUFFER)
    return answerScalar(reinterpret_cast<cl_mem>(m->parents[1]), size, value, size_ret);
  return m->vendor().clGetImageInfo(static_cast<cl_mem>(m->real), param, size, value, size_ret);
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                    void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                                    void *user_data) {
  Obj *m = as(memobj, Tag::DelegatedMem);
  if (!m)
    return CL_INVALID_MEM_OBJECT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  auto *t = Trampoline<cl_mem>::make(pfn_notify, user_data, m);
  cl_int err = m->vendor().clSetMemObjectDestructorCallback(static_cast<cl_mem>(m->real),
                                                            &Trampoline<cl_mem>::call, t);
  if (err != CL_SUCCESS) {
    unhold(m);
    delete t;
  }
  return err;
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized,
                                       cl_addressing_mode addressing, cl_filter_mode filter,
                                       cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_sampler>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_int err = CL_SUCCESS;
  cl_sampler s = c->vendor().clCreateSampler(static_cast<cl_context>(c->real), normalized,
                                             addressing, filter, &err);
  if (!s)
    return withError<cl_sampler>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(
      errcode_ret, CL_SUCCESS,
      reinterpret_cast<cl_sampler>(wrap<Sampler>(Tag::DelegatedSampler, s, c->platform, c)));
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                     const cl_sampler_properties *properties,
                                                     cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_sampler>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  auto fn = c->vendor().clCreateSamplerWithProperties;
  if (!fn)
    return withError<cl_sampler>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  cl_int err = CL_SUCCESS;
  cl_sampler s = fn(static_cast<cl_context>(c->real), properties, &err);
  if (!s)
    return withError<cl_sampler>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(
      errcode_ret, CL_SUCCESS,
      reinterpret_cast<cl_sampler>(wrap<Sampler>(Tag::DelegatedSampler, s, c->platform, c)));
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  Obj *s = as(sampler, Tag::DelegatedSampler);
  if (!s)
    return CL_INVALID_SAMPLER;
  appRetain(s);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  Obj *s = as(sampler, Tag::DelegatedSampler);
  if (!s)
    return CL_INVALID_SAMPLER;
  appRelease(s);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param, size_t size,
                                    void *value, size_t *size_ret) {
  Obj *s = as(sampler, Tag::DelegatedSampler);
  if (!s)
    return CL_INVALID_SAMPLER;
  if (param == CL_SAMPLER_CONTEXT)
    return answerScalar(reinterpret_cast<cl_context>(s->parents[0]), size, value, size_ret);
  if (param == CL_SAMPLER_REFERENCE_COUNT)
    return answerScalar<cl_uint>(s->refCount.load(), size, value, size_ret);
  return s->vendor().clGetSamplerInfo(static_cast<cl_sampler>(s->real), param, size, value,
                                      size_ret);
}

void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             cl_uint alignment) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c || !c->vendor().clSVMAlloc)
    return nullptr;
  return c->vendor().clSVMAlloc(static_cast<cl_context>(c->real), flags, size, alignment);
}

void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (c && c->vendor().clSVMFree)
    c->vendor().clSVMFree(static_cast<cl_context>(c->real), svm_pointer);
}

} // namespace fibercl::delegate
