// CpuDevice::info: every cl_device_info of OpenCL 3.0 and FiberCL's counters for the
// CPU device.
#include "runtime/cpu_device.hpp"
#include "runtime/exec/executor.hpp"
#include "runtime/info_writer.hpp"
#include "runtime/platform.hpp"
#include "runtime/scheduling_codes.hpp"
#include "runtime/versions.hpp"

#include <CL/cl_fibercl.h>

#include "fibercl/compiler/compiler.hpp"
#include "fibercl/kernel_abi.h"

#include <cstring>
#include <string>
#include <vector>

// Kernels reserve scratch for the work-group collectives up to this size.
static_assert(fibercl::runtime::CpuDevice::kMaxWorkGroupSize == FIBERCL_MAX_WORK_GROUP_SIZE);

namespace fibercl::runtime {

void CpuDevice::info(cl_device_info param_name, InfoWriter &out) {
  const cl_device_fp_config fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                 CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
  const cl_device_atomic_capabilities atomics =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
      CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
      CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
  const cl_command_queue_properties queueProps =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  switch (param_name) {
  case CL_DEVICE_TYPE:
    return out.scalar<cl_device_type>(CL_DEVICE_TYPE_CPU);
  case CL_DEVICE_VENDOR_ID:
    return out.scalar<cl_uint>(0); // no PCIe or Khronos vendor id
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return out.scalar<cl_uint>(computeUnits());
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return out.scalar<cl_uint>(3);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return out.scalar<size_t>(kMaxWorkGroupSize);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t sizes[3] = {kMaxWorkGroupSize, kMaxWorkGroupSize, kMaxWorkGroupSize};
    return out.array(sizes, 3);
  }
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return out.scalar<cl_uint>(vectorWidth(1));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return out.scalar<cl_uint>(vectorWidth(2));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return out.scalar<cl_uint>(vectorWidth(4));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return out.scalar<cl_uint>(vectorWidth(8));
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return out.scalar<cl_uint>(vectorWidth(2));
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return out.scalar<cl_uint>(maxClockMHz());
  case CL_DEVICE_ADDRESS_BITS:
    return out.scalar<cl_uint>(64);
  // Image arguments are descriptor addresses: no hardware limit, the spec's minimums
  // and more.
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return out.scalar<cl_uint>(128);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return out.scalar<cl_uint>(64);
  case CL_DEVICE_MAX_SAMPLERS:
    return out.scalar<cl_uint>(16);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return out.scalar<cl_ulong>(maxAllocSize());
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return out.scalar<size_t>(limits().image2dMaxSize);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return out.scalar<size_t>(limits().image3dMaxSize);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return out.scalar<size_t>(limits().imageMaxBufferSize);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return out.scalar<size_t>(limits().imageMaxArraySize);
  case CL_DEVICE_IMAGE_SUPPORT:
    return out.scalar<cl_bool>(CL_TRUE);
  // In pixels: an image's rows and its base may start at any pixel boundary (the
  // builtins read pixels with unaligned loads).
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return out.scalar<cl_uint>(1);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return out.scalar<size_t>(kMaxParameterSize);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return out.scalar<cl_uint>(kMemBaseAddrAlignBits);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return out.scalar<cl_uint>(128);
  case CL_DEVICE_SINGLE_FP_CONFIG: // float division and sqrt are x86's, correctly rounded
    return out.scalar<cl_device_fp_config>(fp | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return out.scalar<cl_device_fp_config>(fp);
  // cl_khr_fp16: half arithmetic is done in float and rounded once (exact for + - * / sqrt);
  // the fma builtin rounds once from an exact double sum (builtins/lib/math_half.cl).
  case CL_DEVICE_HALF_FP_CONFIG:
    return out.scalar<cl_device_fp_config>(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                           CL_FP_FMA);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return out.scalar<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return out.scalar<cl_uint>(64);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return out.scalar<cl_ulong>(1024 * 1024);
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return out.scalar<cl_ulong>(globalMemSize());
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return out.scalar<cl_ulong>(maxAllocSize());
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return out.scalar<cl_uint>(64);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return out.scalar<cl_device_local_mem_type>(CL_LOCAL);
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return out.scalar<cl_ulong>(kLocalMemSize);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return out.scalar<cl_bool>(CL_FALSE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return out.scalar<size_t>(1);
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    return out.scalar<cl_bool>(CL_TRUE);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return out.scalar<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: // == CL_DEVICE_QUEUE_PROPERTIES
    return out.scalar<cl_command_queue_properties>(queueProps);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return out.scalar<cl_command_queue_properties>(0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return out.scalar<cl_uint>(0); // no device-side enqueue
  case CL_DEVICE_MAX_PIPE_ARGS:
    return out.scalar<cl_uint>(kMaxPipeArgs);
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    return out.scalar<cl_uint>(kPipeMaxActiveReservations);
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    return out.scalar<cl_uint>(kPipeMaxPacketSize);
  case CL_DEVICE_MAX_NUM_SUB_GROUPS: // of the smallest size (builtins/lib/fcl_sub_group.h)
    return out.scalar<cl_uint>(FIBERCL_MAX_WORK_GROUP_SIZE / 4);
  case CL_DEVICE_SUB_GROUP_SIZES_INTEL: // cl_intel_required_subgroup_size
    return out.array(std::vector<size_t>{4, 8, 16, 32, 64});
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return out.scalar<cl_uint>(0);
  case CL_DEVICE_NAME:
    return out.string(name());
  case CL_DEVICE_VENDOR:
    return out.string(Platform::kVendor);
  case CL_DRIVER_VERSION:
    // "0.1.<binary format>": a new format invalidates the caches applications key on it.
    return out.string("0.1." + std::to_string(compiler::binaryFormatVersion()));
  case CL_DEVICE_PROFILE:
    return out.string(Platform::kProfile);
  case CL_DEVICE_VERSION:
    return out.string("OpenCL 3.0 FiberCL");
  case CL_DEVICE_NUMERIC_VERSION:
    return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION:
    // Kept for OpenCL 1.x applications: the highest 1.x version.
    return out.string("OpenCL C 1.2 FiberCL");
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    return out.array(nameVersions(openclCVersions()));
  case CL_DEVICE_OPENCL_C_FEATURES:
    return out.array(nameVersions(openclCFeatures()));
  case CL_DEVICE_EXTENSIONS:
    return out.string(joinNames(deviceExtensions()));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return out.array(nameVersions(deviceExtensions()));
  // SPIR-V through the SPIRV-LLVM-Translator (Debian's llvm-spirv-15), when installed:
  // versions 1.0 to kSpirvLastMinor. Not 1.4: the translator rejects some of its
  // instructions (OpPtrEqual/OpPtrDiff, OpCopyLogical, OpDecorateString, OpCopyMemory
  // with two memory operands; CTS spirv_new spirv14_*).
  case CL_DEVICE_ILS_WITH_VERSION: {
    std::vector<cl_name_version> ils;
    for (unsigned minor = 0; compiler::spirvAvailable() && minor <= kSpirvLastMinor; ++minor) {
      cl_name_version v{};
      v.version = CL_MAKE_VERSION(1, minor, 0);
      std::strncpy(v.name, "SPIR-V", CL_NAME_VERSION_MAX_NAME_SIZE - 1);
      ils.push_back(v);
    }
    return out.array(ils);
  }
  case CL_DEVICE_IL_VERSION: {
    std::string versions;
    for (unsigned minor = 0; compiler::spirvAvailable() && minor <= kSpirvLastMinor; ++minor)
      versions += (minor ? " SPIR-V_1." : "SPIR-V_1.") + std::to_string(minor);
    return out.string(versions);
  }
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return out.bytes(nullptr, 0);
  case CL_DEVICE_BUILT_IN_KERNELS:
    return out.string("");
  case CL_DEVICE_PLATFORM:
    return out.scalar<cl_platform_id>(platform().handle());
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return out.scalar<size_t>(kPrintfBufferSize);
  case CL_DEVICE_PARENT_DEVICE:
    return out.scalar<cl_device_id>(nullptr);
  case CL_DEVICE_PARTITION_PROPERTIES: {
    // No partition types: the list is a single 0 (the specification's form).
    const cl_device_partition_property none = 0;
    return out.array(&none, 1);
  }
  case CL_DEVICE_PARTITION_TYPE:
    // A root device may report nothing (size 0).
    return out.bytes(nullptr, 0);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return out.scalar<cl_device_affinity_domain>(0);
  case CL_DEVICE_REFERENCE_COUNT:
    return out.scalar<cl_uint>(1);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    return out.scalar<size_t>(64 * 1024);
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return out.scalar<size_t>(1024 * 1024);
  case CL_DEVICE_SVM_CAPABILITIES: // one address space, the CPU's coherence and atomics
    return out.scalar<cl_device_svm_capabilities>(
        CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
        CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return out.scalar<cl_uint>(0); // natural alignment
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    // Yes: in a kernel with sub-group barriers, a loop that may wait for another
    // sub-group lets the group's other work-items run (the compiler's
    // sub_group_yields.cpp). cl_khr_subgroups requires it (the CTS's ifp_ext).
    return out.scalar<cl_bool>(CL_TRUE);
  case CL_DEVICE_PIPE_SUPPORT:
    return out.scalar<cl_bool>(CL_TRUE);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return out.scalar<cl_device_atomic_capabilities>(atomics);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return out.scalar<size_t>(kPreferredWorkGroupSizeMultiple);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return out.scalar<cl_device_device_enqueue_capabilities>(0);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    return out.string("v0000-01-01-00");
  case CL_DEVICE_OCCUPANCY_FIBERCL:
    return out.scalar<cl_uint>(fibercl::exec::Scheduling::fromEnvironment().occupancy);
  case CL_DEVICE_SCHEDULE_FIBERCL:
    return out.scalar<cl_uint>(
        codeOf(kSchedulePolicyCodes, fibercl::exec::Scheduling::fromEnvironment().policy));
  case CL_DEVICE_STACKS_CREATED_FIBERCL: {
    auto *e = executorIfStarted();
    return out.scalar<cl_ulong>(e ? e->stacksCreated() : 0);
  }
  case CL_DEVICE_FIBER_GROUPS_RUN_FIBERCL: {
    auto *e = executorIfStarted();
    return out.scalar<cl_ulong>(e ? e->fiberGroupsRun() : 0);
  }
  default:
    badParam();
  }
}

} // namespace fibercl::runtime
