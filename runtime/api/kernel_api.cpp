// Entry points for kernel objects: creation, arguments, queries.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/kernel.hpp"
#include "runtime/memory.hpp"
#include "runtime/platform.hpp"
#include "runtime/program.hpp"
#include "runtime/sampler.hpp"
#include "runtime/scheduling_codes.hpp"
#include <CL/cl_fibercl.h>
#include <cstring>

using namespace fibercl;
using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

// Kernel `info` of `built`, adopting the attachment `built` came with (given back if
// the kernel cannot be made).
Ref<Kernel> makeKernel(Program &p, const std::shared_ptr<const Program::Built> &built,
                       const compiler::KernelInfo &info) {
  try {
    fcl_work_group_fn entry = built->entry(info.name);
    check(!entry, CL_INVALID_KERNEL_DEFINITION, "the kernel has no compiled entry");
    return make<Kernel>(p, built, info, entry);
  } catch (...) {
    p.kernelDetached();
    throw;
  }
}

Program &builtProgram(cl_program program) {
  // CL_INVALID_PROGRAM if program is not a valid program object.
  Program &p = obj<Program>(program, "program");
  // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for
  // program.
  check(!p.hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
  return p;
}

// The image type an image argument's OpenCL C type names, or 0 when the type is a
// typedef (then any image is accepted).
cl_mem_object_type imageTypeOf(const std::string &typeName) {
  static const std::pair<const char *, cl_mem_object_type> kTypes[] = {
      {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
      {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
      {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
      {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
      {"image2d_depth_t", CL_MEM_OBJECT_IMAGE2D},
      {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image2d_array_depth_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
      {"image3d_t", CL_MEM_OBJECT_IMAGE3D}};
  for (const auto &[name, type] : kTypes)
    if (typeName == name)
      return type;
  return 0;
}

} // namespace

extern "C" {

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                     cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    Program &p = builtProgram(program);
    // CL_INVALID_VALUE if kernel_name is NULL.
    check(!kernel_name, CL_INVALID_VALUE, "kernel_name is NULL");
    std::shared_ptr<const Program::Built> built = p.attachKernel();
    // CL_INVALID_KERNEL_NAME if kernel_name is not found in program.
    const compiler::KernelInfo *info = built->find(kernel_name);
    if (!info)
      p.kernelDetached();
    check(!info, CL_INVALID_KERNEL_NAME, (std::string("no kernel named ") + kernel_name).c_str());
    return give(makeKernel(p, built, *info));
  });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                            cl_kernel *kernels, cl_uint *num_kernels_ret) {
  return call(__func__, [&] {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    Program &p = obj<Program>(program, "program");
    // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable.
    std::shared_ptr<const Program::Built> built = p.built();
    check(!built, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
    if (kernels) {
      // The first attachment fixes the executable: no rebuild starts while a kernel
      // is attached, so the others are made from the same one.
      built = p.attachKernel();
      // CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number
      // of kernels in program.
      if (num_kernels < built->kernels.size() || built->kernels.empty())
        p.kernelDetached();
      check(num_kernels < built->kernels.size(), CL_INVALID_VALUE,
            "num_kernels is less than the number of kernels");
      std::vector<Ref<Kernel>> made;
      for (size_t i = 0; i < built->kernels.size(); ++i) {
        if (i > 0)
          p.kernelAttached();
        made.push_back(makeKernel(p, built, built->kernels[i]));
      }
      for (size_t i = 0; i < made.size(); ++i)
        kernels[i] = give(std::move(made[i]));
    }
    size_t count = built->kernels.size();
    if (num_kernels_ret)
      *num_kernels_ret = cl_uint(count);
  });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    // CL_INVALID_KERNEL if kernel is not a valid kernel object.
    Kernel &k = obj<Kernel>(source_kernel, "source_kernel");
    return give(make<Kernel>(k));
  });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return call(__func__, [&] { obj<Kernel>(kernel, "kernel").retain(); });
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return call(__func__, [&] { obj<Kernel>(kernel, "kernel").release(); });
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void *arg_value) {
  return call(__func__, [&] {
    // CL_INVALID_KERNEL if kernel is not a valid kernel object.
    Kernel &k = obj<Kernel>(kernel, "kernel");
    // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
    check(arg_index >= k.numArgs(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    const compiler::KernelArg &arg = k.info().args[arg_index];
    // An image or pipe argument's object: CL_INVALID_ARG_SIZE unless arg_size is
    // sizeof(cl_mem), CL_INVALID_ARG_VALUE for NULL, CL_INVALID_MEM_OBJECT unless it is
    // a memory object of the argument's kind (`isKind`) in the kernel's context.
    auto memObjectArg = [&](const char *kind, bool (*isKind)(const Mem &)) {
      auto fail = [&](cl_int code, const char *what) {
        throw Error(code, (what + std::string(kind)).c_str()); // messages only on failure
      };
      if (arg_size != sizeof(cl_mem))
        fail(CL_INVALID_ARG_SIZE, "arg_size must be sizeof(cl_mem) for an argument that takes ");
      if (!arg_value)
        fail(CL_INVALID_ARG_VALUE, "arg_value is NULL for an argument that takes ");
      Mem *m = Mem::fromHandle(*static_cast<const cl_mem *>(arg_value));
      if (!m || !isKind(*m))
        fail(CL_INVALID_MEM_OBJECT, "arg_value is not ");
      if (&m->context() != &k.program().context())
        fail(CL_INVALID_MEM_OBJECT, "arg_value is of another context: ");
      return m;
    };
    switch (arg.kind) {
    case compiler::ArgKind::LocalPointer:
      // CL_INVALID_ARG_VALUE if the argument is declared with the local qualifier
      // and arg_value is not NULL.
      check(arg_value != nullptr, CL_INVALID_ARG_VALUE,
            "arg_value must be NULL for a __local argument");
      // CL_INVALID_ARG_SIZE if arg_size is zero and the argument is declared with
      // the local qualifier.
      check(arg_size == 0, CL_INVALID_ARG_SIZE, "arg_size is 0 for a __local argument");
      k.setLocal(arg_index, arg_size);
      return;
    case compiler::ArgKind::GlobalPointer:
    case compiler::ArgKind::ConstantPointer: {
      // CL_INVALID_ARG_SIZE if the argument is a memory object and arg_size !=
      // sizeof(cl_mem).
      check(arg_size != sizeof(cl_mem), CL_INVALID_ARG_SIZE,
            "arg_size must be sizeof(cl_mem) for a buffer argument");
      // NULL, or a pointer to NULL, sets a NULL buffer.
      cl_mem handle = arg_value ? *static_cast<const cl_mem *>(arg_value) : nullptr;
      if (!handle) {
        k.setMem(arg_index, nullptr);
        return;
      }
      // CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when
      // the specified arg_value is not a valid memory object.
      Mem *m = Mem::fromHandle(handle);
      check(!m || !m->isBuffer(), CL_INVALID_MEM_OBJECT, "arg_value is not a valid buffer");
      check(&m->context() != &k.program().context(), CL_INVALID_MEM_OBJECT,
            "the buffer belongs to another context");
      k.setMem(arg_index, m);
      return;
    }
    case compiler::ArgKind::Value:
      // CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type.
      check(arg_size != arg.size, CL_INVALID_ARG_SIZE,
            ("arg_size must be " + std::to_string(arg.size)).c_str());
      // CL_INVALID_ARG_VALUE if arg_value specified is not a valid value.
      check(!arg_value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
      k.setValue(arg_index, arg_value, arg_size);
      return;
    case compiler::ArgKind::Sampler: {
      // CL_INVALID_ARG_SIZE if the argument is a sampler and arg_size !=
      // sizeof(cl_sampler); CL_INVALID_SAMPLER if arg_value is not a valid sampler.
      check(arg_size != sizeof(cl_sampler), CL_INVALID_ARG_SIZE,
            "arg_size must be sizeof(cl_sampler) for a sampler argument");
      check(!arg_value, CL_INVALID_SAMPLER, "arg_value is NULL");
      Sampler *smp = Sampler::fromHandle(*static_cast<const cl_sampler *>(arg_value));
      check(!smp, CL_INVALID_SAMPLER, "arg_value is not a valid sampler");
      check(&smp->context() != &k.program().context(), CL_INVALID_SAMPLER,
            "the sampler belongs to another context");
      uint64_t bits = smp->kernelBits();
      k.setValue(arg_index, &bits, sizeof bits);
      return;
    }
    case compiler::ArgKind::Image: {
      // CL_INVALID_MEM_OBJECT if the argument is declared to be an image of one type
      // and arg_value is not a valid image of that type.
      Mem *m = memObjectArg("an image", [](const Mem &m) { return m.image() != nullptr; });
      cl_mem_object_type declared = imageTypeOf(arg.typeName);
      check(declared && declared != m->type(), CL_INVALID_MEM_OBJECT,
            ("the image's type does not match the argument's " + arg.typeName).c_str());
      // CL_INVALID_ARG_VALUE if a read_only image argument is given an image created
      // CL_MEM_WRITE_ONLY, or a write_only argument one created CL_MEM_READ_ONLY.
      check(arg.accessQualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
                (m->flags() & CL_MEM_WRITE_ONLY),
            CL_INVALID_ARG_VALUE, "a CL_MEM_WRITE_ONLY image for a read_only argument");
      check(arg.accessQualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
                (m->flags() & CL_MEM_READ_ONLY),
            CL_INVALID_ARG_VALUE, "a CL_MEM_READ_ONLY image for a write_only argument");
      k.setMem(arg_index, m);
      return;
    }
    case compiler::ArgKind::Pipe:
      k.setMem(arg_index, memObjectArg("a pipe", [](const Mem &m) { return m.pipe() != nullptr; }));
      return;
    case compiler::ArgKind::Queue:
      throw Error(CL_INVALID_DEVICE_QUEUE, "device queues are not supported");
    }
  });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                            const void *arg_value) {
  return call(__func__, [&] {
    // CL_INVALID_KERNEL if kernel is not a valid kernel object.
    Kernel &k = obj<Kernel>(kernel, "kernel");
    // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
    check(arg_index >= k.numArgs(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    // The device supports fine-grained system SVM: any host address will do, those of
    // clSVMAlloc and others alike (NULL too).
    auto kind = k.info().args[arg_index].kind;
    check(kind != compiler::ArgKind::GlobalPointer && kind != compiler::ArgKind::ConstantPointer,
          CL_INVALID_ARG_INDEX, "the argument is not a __global or __constant pointer");
    k.setAddress(arg_index, arg_value);
  });
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                       size_t param_value_size, const void *param_value) {
  return call(__func__, [&] {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    Kernel &k = obj<Kernel>(kernel, "kernel");
    auto &s = k.scheduling();
    // CL_INVALID_VALUE if param_name is not valid, if param_value is NULL or if the
    // size specified by param_value_size is not valid.
    auto value = [&](auto tag) {
      using T = decltype(tag);
      check(param_value == nullptr, CL_INVALID_VALUE, "param_value is NULL");
      check(param_value_size != sizeof(T), CL_INVALID_VALUE,
            "param_value_size does not match the parameter's type");
      T v;
      std::memcpy(&v, param_value, sizeof v);
      return v;
    };
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL:
      s.occupancy = value(cl_uint{});
      return;
    case CL_KERNEL_EXEC_INFO_SCHEDULE_FIBERCL: {
      auto policy = valueOfCode(kSchedulePolicyCodes, value(cl_uint{}));
      check(!policy, CL_INVALID_VALUE, "unknown CL_SCHEDULE_*_FIBERCL policy");
      s.schedule = *policy;
      return;
    }
    case CL_KERNEL_EXEC_INFO_SEED_FIBERCL:
      s.seed = value(cl_ulong{});
      return;
    case CL_KERNEL_EXEC_INFO_ADMISSION_FIBERCL: {
      auto order = valueOfCode(kAdmissionOrderCodes, value(cl_uint{}));
      check(!order, CL_INVALID_VALUE, "unknown CL_ADMISSION_*_FIBERCL order");
      s.admission = *order;
      return;
    }
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
      // The pointers a kernel reaches through other memory need nothing: the kernel
      // runs in the host's address space.
      check(!param_value && param_value_size, CL_INVALID_VALUE, "param_value is NULL");
      check(param_value_size % sizeof(void *) != 0, CL_INVALID_VALUE,
            "param_value_size is not a multiple of sizeof(void *)");
      return;
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: {
      cl_bool v = value(cl_bool{});
      check(v != CL_TRUE && v != CL_FALSE, CL_INVALID_VALUE, "not a cl_bool");
      return; // always true here: any host pointer is device-visible
    }
    default:
      throw Error(CL_INVALID_VALUE, "unknown param_name");
    }
  });
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void *param_value,
                                   size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    Kernel &k = obj<Kernel>(kernel, "kernel");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME:
      return out.string(k.name());
    case CL_KERNEL_NUM_ARGS:
      return out.scalar<cl_uint>(cl_uint(k.numArgs()));
    case CL_KERNEL_REFERENCE_COUNT:
      return out.scalar<cl_uint>(k.refs());
    case CL_KERNEL_CONTEXT:
      return out.scalar<cl_context>(k.program().context().handle());
    case CL_KERNEL_PROGRAM:
      return out.scalar<cl_program>(k.program().handle());
    case CL_KERNEL_ATTRIBUTES:
      return out.string(k.info().attributes);
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                      cl_kernel_arg_info param_name, size_t param_value_size,
                                      void *param_value, size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    Kernel &k = obj<Kernel>(kernel, "kernel");
    // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
    check(arg_index >= k.numArgs(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    const compiler::KernelArg &arg = k.info().args[arg_index];
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
      return out.scalar<cl_kernel_arg_address_qualifier>(arg.addressQualifier);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
      return out.scalar<cl_kernel_arg_access_qualifier>(arg.accessQualifier);
    case CL_KERNEL_ARG_TYPE_NAME:
      return out.string(arg.typeName);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
      return out.scalar<cl_kernel_arg_type_qualifier>(arg.typeQualifier);
    case CL_KERNEL_ARG_NAME:
      // CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available
      // for kernel: names are kept only with -cl-kernel-arg-info (the other queries
      // come from what every OpenCL C kernel records).
      check(arg.name.empty(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
            "argument names need a program built with -cl-kernel-arg-info");
      return out.string(arg.name);
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    Kernel &k = obj<Kernel>(kernel, "kernel");
    // CL_INVALID_DEVICE if device is not in the list of devices associated with
    // kernel (NULL is fine: the kernel has one device).
    Device *dev = &k.program().context().device();
    if (device) {
      dev = &obj<Device>(device, "device");
      check(!k.program().context().hasDevice(*dev), CL_INVALID_DEVICE,
            "device is not the kernel's");
    }
    const DeviceLimits &limits = dev->limits();
    const auto &info = k.info();
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE: {
      size_t size = limits.maxWorkGroupSize;
      if (info.reqdWorkGroupSize[0])
        size = info.reqdWorkGroupSize[0] * info.reqdWorkGroupSize[1] * info.reqdWorkGroupSize[2];
      return out.scalar<size_t>(size);
    }
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      size_t sizes[3] = {info.reqdWorkGroupSize[0], info.reqdWorkGroupSize[1],
                         info.reqdWorkGroupSize[2]};
      return out.array(sizes, 3);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE:
      return out.scalar<cl_ulong>(k.localMemSize());
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
      return out.scalar<size_t>(limits.preferredWorkGroupSizeMultiple);
    case CL_KERNEL_PRIVATE_MEM_SIZE:
      return out.scalar<cl_ulong>(info.privateMemSize);
    case CL_KERNEL_GLOBAL_WORK_SIZE:
      // CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is
      // not a custom device and kernel is not a built-in kernel.
      throw Error(CL_INVALID_VALUE, "CL_KERNEL_GLOBAL_WORK_SIZE: not a custom device");
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param_name,
                                           size_t input_value_size, const void *input_value,
                                           size_t param_value_size, void *param_value,
                                           size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    Kernel &k = obj<Kernel>(kernel, "kernel");
    // CL_INVALID_DEVICE if device is not the kernel's (NULL is fine: it has one).
    if (device) {
      Device &dev = obj<Device>(device, "device");
      check(!k.program().context().hasDevice(dev), CL_INVALID_DEVICE, "device is not the kernel's");
    }
    // Sub-groups of S consecutive work-items, the last one possibly partial
    // (builtins/lib/fcl_sub_group.h); S is the kernel's.
    const compiler::KernelInfo &info = k.info();
    const size_t width = info.subGroupSize ? info.subGroupSize : 1;
    size_t maxItems = k.program().context().device().limits().maxWorkGroupSize;
    if (info.reqdWorkGroupSize[0])
      maxItems = info.reqdWorkGroupSize[0] * info.reqdWorkGroupSize[1] * info.reqdWorkGroupSize[2];
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    auto localSize = [&]() {
      // CL_INVALID_VALUE if param_name needs a local size and input_value is not one.
      check(!input_value || input_value_size == 0 || input_value_size % sizeof(size_t) != 0 ||
                input_value_size > 3 * sizeof(size_t),
            CL_INVALID_VALUE, "input_value must be a local size of 1 to 3 size_t");
      const auto *sizes = static_cast<const size_t *>(input_value);
      size_t items = 1;
      for (size_t i = 0; i < input_value_size / sizeof(size_t); ++i)
        items *= sizes[i];
      return items;
    };
    switch (param_name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
      return out.scalar<size_t>(std::min(localSize(), width));
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE:
      return out.scalar<size_t>((localSize() + width - 1) / width);
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
      check(!input_value || input_value_size != sizeof(size_t), CL_INVALID_VALUE,
            "input_value must be one size_t (the sub-group count)");
      size_t count = *static_cast<const size_t *>(input_value);
      size_t dims = param_value_size ? param_value_size / sizeof(size_t) : 3;
      check(dims == 0 || dims > 3, CL_INVALID_VALUE, "param_value_size is not 1 to 3 size_t");
      // count * S work-items in the first dimension; all zeros if that is too many.
      bool possible = count > 0 && count <= maxItems / width;
      std::vector<size_t> size(dims, possible ? 1 : 0);
      if (possible)
        size[0] = count * width;
      return out.array(size);
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS:
      return out.scalar<size_t>((maxItems + width - 1) / width);
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
      return out.scalar<size_t>(0);              // no way to ask for a number of sub-groups
    case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: // cl_intel_required_subgroup_size
      return out.scalar<size_t>(info.requiredSubGroupSize);
    default:
      badParam();
    }
  });
}

} // extern "C"
