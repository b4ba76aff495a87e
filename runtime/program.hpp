// cl_program: source or binary, and the outcome of compiling, linking or building it
// (status, options, log, binary, and the loaded executable kernels run from).
#pragma once

#include "runtime/object.hpp"

#include "fibercl/compiler/compiler.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fibercl::runtime {

class Context;

class Program : public Object<Program, cl_program> {
public:
  static constexpr Tag kTag = Tag::Program;
  static constexpr cl_int kInvalidError = CL_INVALID_PROGRAM;

  enum class Origin { Source, IL, Binary, Link };

  Program(Context &context, std::string source);
  // A SPIR-V program (clCreateProgramWithIL).
  struct IL {
    std::string bytes;
  };
  Program(Context &context, IL il);
  Program(Context &context, compiler::Binary binary);
  // An empty program that clLinkProgram fills.
  explicit Program(Context &context);
  ~Program();

  Context &context() const { return *context_; }
  Origin origin() const { return origin_; }
  const std::string &source() const { return source_; }
  const std::string &il() const { return il_; }

  // clSetProgramSpecializationConstant on an IL program: throws CL_INVALID_SPEC_ID for
  // an id the module does not declare, CL_INVALID_VALUE for a size that is not the
  // constant's. The values apply to the next build or compile.
  void setSpecConstant(cl_uint id, size_t size, const void *value);

  // Each throws Error: CL_INVALID_OPERATION (kernels attached, build in progress,
  // nothing to compile), CL_INVALID_*_OPTIONS, CL_*_PROGRAM_FAILURE.
  void build(const std::string &options);
  void compile(const std::string &options, const std::vector<compiler::Header> &headers);
  void link(const std::vector<Program *> &inputs, const std::string &options, bool createLibrary);

  // Snapshot of the build state (copied under the lock).
  cl_build_status buildStatus() const;
  std::string buildOptions() const;
  std::string buildLog() const;
  compiler::Binary binary() const;
  compiler::BinaryKind binaryKind() const;
  bool hasExecutable() const { return built() != nullptr; }

  // A successful build's kernels and the code they run. Kernels share it with the
  // program, so nothing a kernel points to goes away when the program is rebuilt.
  struct Built {
    std::vector<compiler::KernelInfo> kernels;
    std::unique_ptr<compiler::Executable> executable;
    const compiler::KernelInfo *find(const std::string &name) const;
    fcl_work_group_fn entry(const std::string &name) const;
  };
  // The current executable, or null.
  std::shared_ptr<const Built> built() const;
  // Attaches a kernel about to be made and returns the executable it comes from, in
  // one step under the program's lock: a build either sees the kernel attached (and is
  // refused, CL_INVALID_OPERATION) or has already started (then this throws
  // CL_INVALID_PROGRAM_EXECUTABLE, as when there is no executable). The Kernel made
  // with it adopts the attachment; kernelDetached() gives it back.
  std::shared_ptr<const Built> attachKernel();

  // True when launches must use uniform work-groups: OpenCL C 1.x programs (the
  // default -cl-std) and -cl-uniform-work-group-size.
  bool uniformWorkGroups() const { return uniform_.load(std::memory_order_relaxed); }

  // Kernels created from this program (a rebuild is refused while there are any).
  // kernelAttached: one more beside an existing one (clCloneKernel).
  void kernelAttached() { kernelCount_.fetch_add(1, std::memory_order_relaxed); }
  void kernelDetached() { kernelCount_.fetch_sub(1, std::memory_order_relaxed); }

private:
  // Starts a build step; throws CL_INVALID_OPERATION if one is running or kernels
  // are attached.
  void beginBuild(bool checkKernels);
  void endBuild() { building_.store(false, std::memory_order_release); }
  compiler::SpecConstants specConstants() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return specValues_;
  }
  // Installs a successful executable: loads it for the JIT. Throws failure.
  void installExecutable(compiler::Result &result, const std::string &options, cl_int failureCode);

  Ref<Context> context_;
  Origin origin_;
  std::string source_;
  std::string il_;

  mutable std::mutex mutex_;
  // The IL's specialization constants (id -> bytes, read on first use) and the values
  // set for them.
  std::optional<std::map<uint32_t, uint32_t>> specSizes_;
  compiler::SpecConstants specValues_;
  std::atomic<bool> building_{false};
  std::atomic<uint32_t> kernelCount_{0};
  std::atomic<bool> uniform_{true};
  cl_build_status status_ = CL_BUILD_NONE;
  std::string options_;
  std::string log_;
  compiler::Binary binary_;
  std::shared_ptr<const Built> built_;
};

} // namespace fibercl::runtime
