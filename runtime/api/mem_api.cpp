// Entry points for buffer objects: creation (flag rules), sub-buffers, queries (of
// images too), destructor callbacks.
#include "runtime/api/entry.hpp"
#include "runtime/api/mem_rules.hpp"
#include "runtime/context.hpp"
#include "runtime/memory.hpp"
#include "runtime/platform.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

cl_mem createBuffer(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                    size_t size, void *host_ptr) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context &ctx = obj<Context>(context, "context");
  std::vector<cl_mem_properties> props;
  if (properties) {
    // CL_INVALID_PROPERTY if a property name in properties is not a supported
    // property name (OpenCL 3.0 defines none for buffers).
    check(properties[0] != 0, CL_INVALID_PROPERTY, "unsupported buffer property");
    props.push_back(0);
  }
  checkMemFlags(flags);
  // CL_INVALID_BUFFER_SIZE if size is 0, or if size is greater than
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context.
  check(size == 0, CL_INVALID_BUFFER_SIZE, "size is 0");
  check(size > ctx.device().maxAllocSize(), CL_INVALID_BUFFER_SIZE,
        "size exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
  // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
  // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags.
  bool wantsPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  check(!host_ptr && wantsPtr, CL_INVALID_HOST_PTR,
        "host_ptr is NULL with USE_HOST_PTR or COPY_HOST_PTR");
  check(host_ptr && !wantsPtr, CL_INVALID_HOST_PTR,
        "host_ptr is given without USE_HOST_PTR or COPY_HOST_PTR");
  // CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR is set and host_ptr is a pointer
  // returned by clSVMAlloc and size is greater than the size passed to clSVMAlloc.
  if ((flags & CL_MEM_USE_HOST_PTR) && ctx.svm().find(host_ptr) == host_ptr)
    check(ctx.svm().find(host_ptr, size) != host_ptr, CL_INVALID_BUFFER_SIZE,
          "size is larger than the SVM allocation host_ptr points to");
  return give(make<Mem>(ctx, flags, size, host_ptr, std::move(props)));
}

} // namespace

extern "C" {

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void *host_ptr, cl_int *errcode_ret) {
  return create(__func__, errcode_ret,
                [&] { return createBuffer(context, nullptr, flags, size, host_ptr); });
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                const cl_mem_properties *properties,
                                                cl_mem_flags flags, size_t size, void *host_ptr,
                                                cl_int *errcode_ret) {
  return create(__func__, errcode_ret,
                [&] { return createBuffer(context, properties, flags, size, host_ptr); });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void *buffer_create_info, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    // CL_INVALID_MEM_OBJECT if buffer is not a buffer object or is a sub-buffer.
    Mem &parent = obj<Mem>(buffer, "buffer");
    check(!parent.isBuffer(), CL_INVALID_MEM_OBJECT, "buffer is an image or a pipe");
    check(parent.parent() != nullptr, CL_INVALID_MEM_OBJECT, "buffer is a sub-buffer");
    checkMemFlags(flags);
    cl_mem_flags effective = inheritFlags(flags, parent);
    // CL_INVALID_VALUE if value specified in buffer_create_type is not valid.
    check(buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE,
          "buffer_create_type");
    // CL_INVALID_VALUE if value(s) specified in buffer_create_info are not valid or
    // if buffer_create_info is NULL.
    check(!buffer_create_info, CL_INVALID_VALUE, "buffer_create_info is NULL");
    auto region = *static_cast<const cl_buffer_region *>(buffer_create_info);
    // CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region is 0.
    check(region.size == 0, CL_INVALID_BUFFER_SIZE, "region size is 0");
    check(region.origin > parent.size() || region.size > parent.size() - region.origin,
          CL_INVALID_VALUE, "the region is outside the buffer");
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if ... the origin field of the
    // cl_buffer_region is not aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value.
    check(region.origin % (parent.context().device().limits().memBaseAddrAlignBits / 8) != 0,
          CL_MISALIGNED_SUB_BUFFER_OFFSET, "region origin is misaligned");
    return give(make<Mem>(parent, effective, region.origin, region.size));
  });
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return call(__func__, [&] { obj<Mem>(memobj, "memobj").retain(); });
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return call(__func__, [&] { obj<Mem>(memobj, "memobj").release(); });
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                      size_t param_value_size, void *param_value,
                                      size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object.
    Mem &m = obj<Mem>(memobj, "memobj");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_MEM_TYPE:
      return out.scalar<cl_mem_object_type>(m.type());
    case CL_MEM_FLAGS:
      return out.scalar<cl_mem_flags>(m.flags());
    case CL_MEM_SIZE:
      return out.scalar<size_t>(m.size());
    case CL_MEM_HOST_PTR:
      return out.scalar<void *>(m.hostPtr());
    case CL_MEM_MAP_COUNT:
      return out.scalar<cl_uint>(m.mapCount());
    case CL_MEM_REFERENCE_COUNT:
      return out.scalar<cl_uint>(m.refs());
    case CL_MEM_CONTEXT:
      return out.scalar<cl_context>(m.context().handle());
    case CL_MEM_ASSOCIATED_MEMOBJECT:
      return out.scalar<cl_mem>(m.parent() ? m.parent()->handle() : nullptr);
    case CL_MEM_OFFSET:
      return out.scalar<size_t>(m.offset());
    case CL_MEM_USES_SVM_POINTER: // a USE_HOST_PTR buffer on a clSVMAlloc allocation
      return out.scalar<cl_bool>(m.hostPtr() && (m.flags() & CL_MEM_USE_HOST_PTR) &&
                                         m.context().svm().find(m.hostPtr(), m.size())
                                     ? CL_TRUE
                                     : CL_FALSE);
    case CL_MEM_PROPERTIES:
      return out.array(m.properties());
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                    void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
                                                    void *user_data) {
  return call(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
    Mem &m = obj<Mem>(memobj, "memobj");
    // CL_INVALID_VALUE if pfn_notify is NULL.
    check(!pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    m.addDestructorCallback(pfn_notify, user_data);
  });
}

} // extern "C"
