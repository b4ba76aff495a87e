// Entry points for pipe objects: creation (size and flag rules) and queries. A pipe's
// storage and how kernels use it: fibercl/pipe_abi.h.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/device.hpp"
#include "runtime/info_writer.hpp"
#include "runtime/memory.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

extern "C" {

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                cl_uint pipe_max_packets, const cl_pipe_properties *properties,
                                cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_mem {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context &ctx = obj<Context>(context, "context");
    // CL_INVALID_OPERATION if no devices in context support pipes.
    const uint32_t maxPacketSize = ctx.device().limits().pipeMaxPacketSize;
    check(maxPacketSize == 0, CL_INVALID_OPERATION, "the device has no pipe support");
    // CL_INVALID_VALUE if values specified in flags are not as defined above: only
    // CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS, which are also the default.
    check(flags & ~cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS), CL_INVALID_VALUE,
          "flags may only be CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS");
    // CL_INVALID_VALUE if values specified in properties are not valid (OpenCL 3.0
    // defines none: the list must be NULL or empty).
    std::vector<cl_mem_properties> props;
    if (properties) {
      check(properties[0] != 0, CL_INVALID_VALUE, "unsupported pipe property");
      props.push_back(0);
    }
    // CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or greater than
    // CL_DEVICE_PIPE_MAX_PACKET_SIZE, or if pipe_max_packets is 0.
    check(pipe_packet_size == 0, CL_INVALID_PIPE_SIZE, "pipe_packet_size is 0");
    check(pipe_packet_size > maxPacketSize, CL_INVALID_PIPE_SIZE,
          "pipe_packet_size exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE");
    check(pipe_max_packets == 0, CL_INVALID_PIPE_SIZE, "pipe_max_packets is 0");
    // CL_INVALID_PIPE_SIZE (as other implementations do) if the pipe would exceed
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE.
    check(uint64_t(pipe_packet_size) * pipe_max_packets > ctx.device().maxAllocSize(),
          CL_INVALID_PIPE_SIZE, "the pipe exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    if (flags == 0)
      flags = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;
    return give(
        make<Mem>(ctx, flags, PipeShape{pipe_packet_size, pipe_max_packets}, std::move(props)));
  });
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                                 void *param_value, size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
    Mem &m = obj<Mem>(pipe, "pipe");
    check(!m.pipe(), CL_INVALID_MEM_OBJECT, "pipe is not a pipe object");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_PIPE_PACKET_SIZE:
      return out.scalar<cl_uint>(m.pipe()->packetSize);
    case CL_PIPE_MAX_PACKETS:
      return out.scalar<cl_uint>(m.pipe()->maxPackets);
    case CL_PIPE_PROPERTIES:
      return out.array(m.properties());
    default:
      badParam();
    }
  });
}

} // extern "C"
