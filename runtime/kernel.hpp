// cl_kernel: one kernel of a built program and its current argument values, and the
// snapshot of those values an NDRange command takes at enqueue time.
#pragma once

#include "runtime/memory.hpp"
#include "runtime/object.hpp"
#include "runtime/program.hpp"
#include "runtime/scheduling_names.hpp"

#include "fibercl/compiler/compiler.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace fibercl::runtime {

class Mem;

class Kernel : public Object<Kernel, cl_kernel> {
public:
  static constexpr Tag kTag = Tag::Kernel;
  static constexpr cl_int kInvalidError = CL_INVALID_KERNEL;

  // Adopts the attachment `built` came with (Program::attachKernel); `info` is one of
  // its kernels.
  Kernel(Program &program, std::shared_ptr<const Program::Built> built,
         const compiler::KernelInfo &info, fcl_work_group_fn entry);
  // clCloneKernel: same program, copies of the argument values.
  explicit Kernel(const Kernel &other);
  ~Kernel();

  Program &program() const { return *program_; }
  const compiler::KernelInfo &info() const { return *info_; }
  const std::string &name() const { return info_->name; }
  fcl_work_group_fn entry() const { return entry_; }
  // entry() compiled for groups of exactly `localSize` (compiler::Executable's
  // specialisedEntry), or null; of the vector copy when `vectorCopy`.
  fcl_work_group_fn specialisedEntry(const uint64_t localSize[3], bool vectorCopy) const;
  // The vector copy (KernelInfo::subGroupVectors), or null: each sub-group one vector.
  fcl_work_group_fn subGroupVectorEntry() const { return vectorEntry_; }
  size_t numArgs() const { return info_->args.size(); }

  // clSetKernelArg once validated: the argument's bytes, a buffer (may be null), or
  // the size of a __local argument.
  void setValue(cl_uint index, const void *value, size_t size);
  void setMem(cl_uint index, Mem *mem);
  // clSetKernelArgSVMPointer: a pointer argument given as an address.
  void setAddress(cl_uint index, const void *address);
  void setLocal(cl_uint index, size_t size);

  bool allArgsSet() const;
  // Static __local bytes plus the __local arguments, each 128-byte aligned.
  uint64_t localMemSize() const;

  // A copy of the arguments in the kernel ABI's form (kernel_abi.h): `args[i]`
  // points into `bytes`; buffers hold device addresses, __local arguments offsets.
  // Throws Error(CL_INVALID_KERNEL_ARGS) if a memory object argument was released.
  struct Snapshot {
    std::unique_ptr<unsigned char[]> storage;
    void **args = nullptr;
    std::vector<Ref<Mem>> mems; // kept alive until the command is done
    uint64_t localMemSize = 0;
    // FIBERCL_CHECK=bounds or races (KernelInfo::boundsChecked, racesChecked): where each
    // argument may reach, and which are race-free.
    std::vector<fcl_check_bounds> bounds;
  };
  Snapshot snapshot() const;

  // clSetKernelExecInfo's cl_fibercl_scheduling values (CL/cl_fibercl.h); unset ones
  // come from the environment at each launch.
  struct SchedulingOverrides {
    std::optional<uint32_t> occupancy;
    std::optional<SchedulePolicy> schedule;
    std::optional<uint64_t> seed;
    std::optional<AdmissionOrder> admission;
  };
  SchedulingOverrides &scheduling() { return scheduling_; }
  const SchedulingOverrides &scheduling() const { return scheduling_; }

private:
  std::vector<fcl_check_bounds> checkBounds(const Snapshot &s) const;
  void markRaceFree(const Snapshot &s, std::vector<fcl_check_bounds> &bounds) const;

  SchedulingOverrides scheduling_;
  struct Arg {
    bool set = false;
    const Mem *mem = nullptr; // not kept alive (Mem::lookUp)
    uint64_t memSerial = 0;
    uint64_t address = 0; // an SVM pointer argument's address, when no `mem`
    uint64_t localSize = 0;
  };
  void computeLayout();

  Ref<Program> program_;
  std::shared_ptr<const Program::Built> built_; // owns *info_ and the code entry_ runs
  const compiler::KernelInfo *info_;
  fcl_work_group_fn entry_;
  fcl_work_group_fn vectorEntry_;
  std::vector<Arg> args_;
  std::vector<size_t> offsets_;       // of each argument in values_
  std::vector<unsigned char> values_; // by-value argument bytes
};

} // namespace fibercl::runtime
