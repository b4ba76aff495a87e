// cl_program: compile / link / build through the compiler, then JIT-load.
#include "runtime/program.hpp"
#include "runtime/context.hpp"
#include "runtime/device.hpp"
#include "runtime/error.hpp"
#include "runtime/source_dump.hpp"

#include <cstring>

namespace fibercl::runtime {

Program::Program(Context &context, std::string source)
    : context_(context), origin_(Origin::Source), source_(std::move(source)) {}

Program::Program(Context &context, compiler::Binary binary)
    : context_(context), origin_(Origin::Binary), binary_(std::move(binary)) {}

Program::Program(Context &context, IL il)
    : context_(context), origin_(Origin::IL), il_(std::move(il.bytes)) {}

Program::Program(Context &context) : context_(context), origin_(Origin::Link) {}

Program::~Program() = default;

void Program::beginBuild(bool checkKernels) {
  std::lock_guard<std::mutex> lock(mutex_); // against attachKernel
  // CL_INVALID_OPERATION if there are kernel objects attached to program.
  if (checkKernels && kernelCount_.load(std::memory_order_relaxed) > 0)
    throw Error(CL_INVALID_OPERATION, "kernels are attached to the program");
  // CL_INVALID_OPERATION if a previous build has not completed.
  if (building_.exchange(true, std::memory_order_acquire))
    throw Error(CL_INVALID_OPERATION, "a build of the program is in progress");
}

void Program::installExecutable(compiler::Result &result, const std::string &options,
                                cl_int failureCode) {
  std::string error;
  std::unique_ptr<compiler::Executable> exe;
  if (result.success) {
    exe = context_->device().loadBinary(result.binary, error);
    if (!exe) {
      result.success = false;
      result.log += (result.log.empty() ? "" : "\n") + error;
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  options_ = options;
  log_ = std::move(result.log);
  if (!result.success) {
    status_ = CL_BUILD_ERROR;
    binary_ = {};
    built_.reset();
    throw Error(result.invalidOptions
                    ? (failureCode == CL_LINK_PROGRAM_FAILURE ? CL_INVALID_LINKER_OPTIONS
                                                              : CL_INVALID_BUILD_OPTIONS)
                    : failureCode,
                "see the build log");
  }
  status_ = CL_BUILD_SUCCESS;
  binary_ = std::move(result.binary);
  auto built = std::make_shared<Built>();
  built->kernels = result.kernels.empty() ? exe->kernels() : std::move(result.kernels);
  built->executable = std::move(exe);
  built_ = std::move(built);
}

void Program::build(const std::string &options) {
  beginBuild(true);
  struct End {
    Program *p;
    ~End() { p->endBuild(); }
  } end{this};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = CL_BUILD_IN_PROGRESS;
  }
  compiler::Result result;
  uniform_.store(compiler::uniformWorkGroups(options), std::memory_order_relaxed);
  if (origin_ == Origin::Source) {
    dumpSource(Capture::Build, source_, options);
    result = compiler::build(source_, options);
  } else if (origin_ == Origin::IL) {
    result = compiler::buildIL(il_, options, specConstants());
  } else {
    compiler::Binary input = binary();
    // CL_INVALID_BINARY if program is created with clCreateProgramWithBinary and
    // devices listed in device_list do not have a valid program binary loaded.
    if (input.kind == compiler::BinaryKind::None) {
      std::lock_guard<std::mutex> lock(mutex_);
      status_ = CL_BUILD_ERROR;
      throw Error(CL_INVALID_BINARY, "the program has no binary to build");
    }
    result = compiler::buildFromBinary(input, options);
  }
  installExecutable(result, options, CL_BUILD_PROGRAM_FAILURE);
}

void Program::setSpecConstant(cl_uint id, size_t size, const void *value) {
  std::optional<std::map<uint32_t, uint32_t>> sizes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sizes = specSizes_;
  }
  if (!sizes) { // runs the translator: not under the lock build queries take
    std::string why;
    sizes = compiler::specConstantSizes(il_, why);
    if (!sizes)
      throw Error(CL_INVALID_SPEC_ID,
                  ("cannot read the module's specialization constants: " + why).c_str());
  }
  auto it = sizes->find(id);
  if (it == sizes->end())
    throw Error(CL_INVALID_SPEC_ID, "spec_id is not a specialization constant of the module");
  if (size != it->second || size == 0 || size > 8)
    throw Error(CL_INVALID_VALUE, "spec_size is not the specialization constant's size");
  compiler::SpecConstant c;
  c.size = it->second;
  std::memcpy(&c.bits, value, size); // little-endian: the low bytes
  std::lock_guard<std::mutex> lock(mutex_);
  specSizes_ = std::move(sizes);
  specValues_[id] = c;
}

void Program::compile(const std::string &options, const std::vector<compiler::Header> &headers) {
  // CL_INVALID_OPERATION if program has no source or IL available, i.e. it has not
  // been created with clCreateProgramWithSource or clCreateProgramWithIL.
  if (origin_ != Origin::Source && origin_ != Origin::IL)
    throw Error(CL_INVALID_OPERATION, "program was not created from source or IL");
  beginBuild(true);
  struct End {
    Program *p;
    ~End() { p->endBuild(); }
  } end{this};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = CL_BUILD_IN_PROGRESS;
  }
  uniform_.store(compiler::uniformWorkGroups(options), std::memory_order_relaxed);
  if (origin_ != Origin::IL)
    dumpSource(Capture::Compile, source_, options, headers);
  compiler::Result result = origin_ == Origin::IL
                                ? compiler::compileIL(il_, options, specConstants())
                                : compiler::compile(source_, options, headers);
  std::lock_guard<std::mutex> lock(mutex_);
  options_ = options;
  log_ = std::move(result.log);
  built_.reset();
  if (!result.success) {
    status_ = CL_BUILD_ERROR;
    binary_ = {};
    throw Error(result.invalidOptions ? CL_INVALID_COMPILER_OPTIONS : CL_COMPILE_PROGRAM_FAILURE,
                "see the build log");
  }
  status_ = CL_BUILD_SUCCESS;
  binary_ = std::move(result.binary);
}

void Program::link(const std::vector<Program *> &inputs, const std::string &options,
                   bool createLibrary) {
  beginBuild(false);
  struct End {
    Program *p;
    ~End() { p->endBuild(); }
  } end{this};
  std::vector<compiler::Binary> binaries;
  binaries.reserve(inputs.size());
  // -cl-uniform-work-group-size is a compile option: a linked program launches with
  // uniform groups if any of its objects was compiled for them.
  bool uniform = false;
  for (Program *p : inputs) {
    binaries.push_back(p->binary());
    uniform |= p->uniformWorkGroups();
  }
  uniform_.store(uniform, std::memory_order_relaxed);
  std::vector<const compiler::Binary *> ptrs;
  for (auto &b : binaries)
    ptrs.push_back(&b);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = CL_BUILD_IN_PROGRESS;
  }
  compiler::Result result = compiler::link(ptrs, options, createLibrary);
  if (createLibrary) {
    std::lock_guard<std::mutex> lock(mutex_);
    options_ = options;
    log_ = std::move(result.log);
    if (!result.success) {
      status_ = CL_BUILD_ERROR;
      throw Error(result.invalidOptions ? CL_INVALID_LINKER_OPTIONS : CL_LINK_PROGRAM_FAILURE,
                  "see the build log");
    }
    status_ = CL_BUILD_SUCCESS;
    binary_ = std::move(result.binary);
    return;
  }
  installExecutable(result, options, CL_LINK_PROGRAM_FAILURE);
}

cl_build_status Program::buildStatus() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}
std::string Program::buildOptions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return options_;
}
std::string Program::buildLog() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_;
}
compiler::Binary Program::binary() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return binary_;
}
compiler::BinaryKind Program::binaryKind() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return binary_.kind;
}

std::shared_ptr<const Program::Built> Program::built() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return built_;
}

std::shared_ptr<const Program::Built> Program::attachKernel() {
  std::lock_guard<std::mutex> lock(mutex_);
  // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for
  // program (while it is rebuilt, the one there was is going away).
  if (!built_ || building_.load(std::memory_order_acquire))
    throw Error(CL_INVALID_PROGRAM_EXECUTABLE,
                built_ ? "the program is being rebuilt" : "the program has no executable");
  kernelCount_.fetch_add(1, std::memory_order_relaxed);
  return built_;
}

const compiler::KernelInfo *Program::Built::find(const std::string &name) const {
  for (const auto &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

fcl_work_group_fn Program::Built::entry(const std::string &name) const {
  return executable ? executable->entry(name) : nullptr;
}

} // namespace fibercl::runtime
