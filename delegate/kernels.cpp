// Kernels on delegated devices. Arguments that are FiberCL handles (buffers, images,
// pipes, samplers, device queues) are passed to the vendor as its own handles.
#include "delegate/forward.hpp"

namespace fibercl::delegate {
namespace {

Kernel *wrapKernel(cl_kernel real, Obj *program) {
  auto *k =
      wrap<Kernel>(Tag::DelegatedKernel, real, program->platform, program->parents[0], program);
  if (k->name.empty()) {
    char name[512] = {};
    k->vendor().clGetKernelInfo(real, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr);
    k->name = name;
  }
  return k;
}

} // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                     cl_int *errcode_ret) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return withError<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM, nullptr);
  cl_int err = CL_SUCCESS;
  cl_kernel k = p->vendor().clCreateKernel(static_cast<cl_program>(p->real), kernel_name, &err);
  if (!k)
    return withError<cl_kernel>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, CL_SUCCESS, reinterpret_cast<cl_kernel>(wrapKernel(k, p)));
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                            cl_kernel *kernels, cl_uint *num_kernels_ret) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  auto real = static_cast<cl_program>(p->real);
  if (!kernels)
    return p->vendor().clCreateKernelsInProgram(real, 0, nullptr, num_kernels_ret);
  std::vector<cl_kernel> made(num_kernels);
  cl_uint n = 0;
  if (cl_int err = p->vendor().clCreateKernelsInProgram(real, num_kernels, made.data(), &n))
    return err;
  for (cl_uint i = 0; i < n; ++i)
    kernels[i] = reinterpret_cast<cl_kernel>(wrapKernel(made[i], p));
  if (num_kernels_ret)
    *num_kernels_ret = n;
  return CL_SUCCESS;
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  Obj *k = as(source_kernel, Tag::DelegatedKernel);
  if (!k)
    return withError<cl_kernel>(errcode_ret, CL_INVALID_KERNEL, nullptr);
  auto fn = k->vendor().clCloneKernel;
  if (!fn)
    return withError<cl_kernel>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  cl_int err = CL_SUCCESS;
  cl_kernel c = fn(static_cast<cl_kernel>(k->real), &err);
  if (!c)
    return withError<cl_kernel>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, CL_SUCCESS,
                   reinterpret_cast<cl_kernel>(wrapKernel(c, k->parents[1])));
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  appRetain(k);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  appRelease(k);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  // The call does not say the argument's type: a pointer-sized value that is a live
  // FiberCL handle is one (a scalar equal to a live handle's address is not plausible).
  if (arg_size == sizeof(void *) && arg_value) {
    void *h = *static_cast<void *const *>(arg_value);
    if (Obj *o = liveWrapper(h, {Tag::DelegatedMem, Tag::DelegatedSampler, Tag::DelegatedQueue})) {
      if (o->refCount.load() == 0)
        return o->tag.load() == Tag::DelegatedSampler ? CL_INVALID_SAMPLER : CL_INVALID_MEM_OBJECT;
      void *real = o->real;
      return k->vendor().clSetKernelArg(static_cast<cl_kernel>(k->real), arg_index, arg_size,
                                        &real);
    }
  }
  return k->vendor().clSetKernelArg(static_cast<cl_kernel>(k->real), arg_index, arg_size,
                                    arg_value);
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                            const void *arg_value) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  auto fn = k->vendor().clSetKernelArgSVMPointer;
  return fn ? fn(static_cast<cl_kernel>(k->real), arg_index, arg_value) : CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param, size_t size,
                                       const void *value) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  auto fn = k->vendor().clSetKernelExecInfo;
  return fn ? fn(static_cast<cl_kernel>(k->real), param, size, value) : CL_INVALID_OPERATION;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param, size_t size, void *value,
                                   size_t *size_ret) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  switch (param) {
  case CL_KERNEL_CONTEXT:
    return answerScalar(reinterpret_cast<cl_context>(k->parents[0]), size, value, size_ret);
  case CL_KERNEL_PROGRAM:
    return answerScalar(reinterpret_cast<cl_program>(k->parents[1]), size, value, size_ret);
  case CL_KERNEL_REFERENCE_COUNT:
    return answerScalar<cl_uint>(k->refCount.load(), size, value, size_ret);
  default:
    return k->vendor().clGetKernelInfo(static_cast<cl_kernel>(k->real), param, size, value,
                                       size_ret);
  }
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param, size_t size,
                                            void *value, size_t *size_ret) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  Obj *d = device ? as(device, Tag::DelegatedDevice) : nullptr;
  if (device && !d)
    return CL_INVALID_DEVICE;
  return k->vendor().clGetKernelWorkGroupInfo(static_cast<cl_kernel>(k->real),
                                              d ? static_cast<cl_device_id>(d->real) : nullptr,
                                              param, size, value, size_ret);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param,
                                      size_t size, void *value, size_t *size_ret) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  auto fn = k->vendor().clGetKernelArgInfo;
  return fn ? fn(static_cast<cl_kernel>(k->real), arg_index, param, size, value, size_ret)
            : CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param, size_t input_size,
                                           const void *input, size_t size, void *value,
                                           size_t *size_ret) {
  Obj *k = as(kernel, Tag::DelegatedKernel);
  if (!k)
    return CL_INVALID_KERNEL;
  Obj *d = device ? as(device, Tag::DelegatedDevice) : nullptr;
  if (device && !d)
    return CL_INVALID_DEVICE;
  auto fn = k->vendor().clGetKernelSubGroupInfo;
  return fn ? fn(static_cast<cl_kernel>(k->real), d ? static_cast<cl_device_id>(d->real) : nullptr,
                 param, input_size, input, size, value, size_ret)
            : CL_INVALID_OPERATION;
}

} // namespace fibercl::delegate
