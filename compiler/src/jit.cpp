// Loading an executable binary: ORC LLJIT compiles its optimised IR for the host.
//
// Where every symbol of the JIT-compiled code comes from:
//   __fibercl_wg_<kernel>     the binary's IR (the only external definitions)
//   everything else defined   the binary's IR, internal (user code + builtins library)
//   __fibercl_host_*          the runtime, as absolute symbols (compiler::HostSymbols;
//                             the list: fibercl/host_abi.def)
//   sinf, exp, memcpy, ...    the C library and libm of this process, looked up by the
//                             generators (pipeline.cpp's checkUndefined only lets
//                             through names LLVM knows as library functions)
//   __truncdfhf2, ...         half conversions the code generator calls: libgcc's,
//                             by address (kCodegenHelpers)
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <tuple>

#include "binary_format.hpp"
#include "compiler_stack.hpp"
#include "fibercl/compiler/compiler.hpp"
#include "fibercl/compiler/debug.hpp"
#include "host_target.hpp"
#include "local_size_specialisation.hpp"
#include "passes/passes.hpp"
#include "perf_map.hpp"
#include "vector_math.hpp"

// Half-precision conversions LLVM's x86 code generator emits as calls (no x86
// instruction narrows double to half, and none converts at all without F16C).
// libgcc_s defines them, but the process-wide lookup does not find them when the ICD
// loader opens FiberCL with RTLD_LOCAL, so they are handed to the JIT by address.
extern "C" {
void __truncdfhf2();
void __truncsfhf2();
void __extendhfsf2();
void __extendhfdf2();
}

namespace fibercl::compiler {
namespace {

const std::pair<const char *, void (*)()> kCodegenHelpers[] = {
    {"__truncdfhf2", __truncdfhf2},
    {"__truncsfhf2", __truncsfhf2},
    {"__extendhfsf2", __extendhfsf2},
    {"__extendhfdf2", __extendhfdf2},
};

class JitExecutable final : public Executable {
public:
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::vector<KernelInfo> kernelTable;
  std::map<std::string, fcl_work_group_fn> entries;
  // The optimised IR, kept when a kernel may be specialised (it has barrier regions).
  std::string bitcode;

  const std::vector<KernelInfo> &kernels() const override { return kernelTable; }
  fcl_work_group_fn entry(const std::string &kernelName) const override {
    auto it = entries.find(kernelName);
    return it == entries.end() ? nullptr : it->second;
  }
  fcl_work_group_fn specialisedEntry(const std::string &kernelName,
                                     const uint64_t localSize[3]) const override;

private:
  fcl_work_group_fn specialise(const std::string &kernelName, const uint64_t localSize[3]) const;

  mutable std::mutex specialisedLock_;
  // Made or refused (null) for (kernel, x, y, z).
  mutable std::map<std::tuple<std::string, uint64_t, uint64_t, uint64_t>, fcl_work_group_fn>
      specialised_;
};

fcl_work_group_fn JitExecutable::specialisedEntry(const std::string &kernelName,
                                                  const uint64_t localSize[3]) const {
  if (bitcode.empty())
    return nullptr;
  std::lock_guard<std::mutex> hold(specialisedLock_);
  auto key = std::make_tuple(kernelName, localSize[0], localSize[1], localSize[2]);
  auto it = specialised_.find(key);
  if (it == specialised_.end())
    it = specialised_
             .emplace(key, onCompilerStack([&] { return specialise(kernelName, localSize); },
                                           [&](const std::string &how) {
                                             if (debugChannel("specialise"))
                                               llvm::errs() << "FiberCL: the compiler crashed "
                                                               "specialising '"
                                                            << kernelName << "': " << how << "\n";
                                             return fcl_work_group_fn(nullptr);
                                           }))
             .first;
  return it->second;
}

fcl_work_group_fn JitExecutable::specialise(const std::string &kernelName,
                                            const uint64_t localSize[3]) const {
  auto started = std::chrono::steady_clock::now();
  auto context = std::make_unique<llvm::LLVMContext>();
  std::string name, why;
  std::unique_ptr<llvm::Module> m =
      specialiseWorkGroupFunction(*context, bitcode, kernelName, localSize, name, why);
  if (m) {
    if (auto err = jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(context))))
      why = llvm::toString(std::move(err));
    else if (auto address = jit->lookup(name)) {
      if (debugChannel("specialise"))
        llvm::errs() << "FiberCL: " << name << " compiled in "
                     << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                                  started)
                            .count()
                     << " ms\n";
      return address->toPtr<fcl_work_group_fn>();
    } else
      why = llvm::toString(address.takeError());
  }
  if (debugChannel("specialise"))
    llvm::errs() << "FiberCL: kernel '" << kernelName
                 << "' keeps its generic work-group function: " << why << "\n";
  return nullptr;
}

} // namespace

namespace {

std::unique_ptr<Executable> loadHere(const Binary &binary, const HostSymbols &hostSymbols,
                                     std::string &error) {
  DecodedBinary decoded;
  if (!decodeBinary(binary.bytes.data(), binary.bytes.size(), decoded) ||
      decoded.kind != BinaryKind::Executable) {
    error = "not a FiberCL executable binary";
    return nullptr;
  }
  initializeNativeTarget();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    error = llvm::toString(jtmb.takeError());
    return nullptr;
  }
  configureHostCodegen(*jtmb);
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  addPerfMap(**jit);
  llvm::orc::JITDylib &dylib = (*jit)->getMainJITDylib();

  llvm::orc::SymbolMap symbols;
  for (const auto &[name, address] : hostSymbols)
    symbols[(*jit)->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                              llvm::JITSymbolFlags::Exported |
                                                  llvm::JITSymbolFlags::Callable};
  for (const auto &[name, function] : kCodegenHelpers)
    symbols[(*jit)->mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(reinterpret_cast<void *>(function)),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (auto err = dylib.define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  if (auto libm = llvm::orc::DynamicLibrarySearchGenerator::Load("libm.so.6", prefix))
    dylib.addGenerator(std::move(*libm));
  else
    llvm::consumeError(libm.takeError());
  if (vectorMathAvailable()) {
    if (auto vecmath = llvm::orc::DynamicLibrarySearchGenerator::Load(kVectorMathLibrary, prefix))
      dylib.addGenerator(std::move(*vecmath));
    else
      llvm::consumeError(vecmath.takeError());
  }
  if (auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix))
    dylib.addGenerator(std::move(*process));
  else
    llvm::consumeError(process.takeError());

  if (!decoded.object.empty() && decoded.target == hostTargetKey()) {
    // Machine code compiled for this kind of CPU: link it as it is.
    if (auto err = (*jit)->addObjectFile(
            llvm::MemoryBuffer::getMemBufferCopy(decoded.object, "fibercl-object"))) {
      error = llvm::toString(std::move(err));
      return nullptr;
    }
  } else {
    auto context = std::make_unique<llvm::LLVMContext>();
    auto module = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(decoded.bitcode, "fibercl-executable"), *context);
    if (!module) {
      error = "corrupt binary: " + llvm::toString(module.takeError());
      return nullptr;
    }
    if (auto err = (*jit)->addIRModule(
            llvm::orc::ThreadSafeModule(std::move(*module), std::move(context)))) {
      error = llvm::toString(std::move(err));
      return nullptr;
    }
  }

  auto executable = std::make_unique<JitExecutable>();
  for (const KernelInfo &k : decoded.kernels) {
    auto address = (*jit)->lookup(workGroupName(k.name));
    if (!address) {
      error = "cannot compile kernel '" + k.name + "': " + llvm::toString(address.takeError());
      return nullptr;
    }
    executable->entries[k.name] = address->toPtr<fcl_work_group_fn>();
    if (!k.subGroupVectors)
      continue;
    auto vectors = (*jit)->lookup(workGroupName(k.name + ".sgvec"));
    if (!vectors) {
      error = "cannot compile kernel '" + k.name + "': " + llvm::toString(vectors.takeError());
      return nullptr;
    }
    executable->entries[k.name + ".sgvec"] = vectors->toPtr<fcl_work_group_fn>();
  }
  if (std::any_of(decoded.kernels.begin(), decoded.kernels.end(),
                  [](const KernelInfo &k) { return k.barrierRegions || k.subGroupVectors; }))
    executable->bitcode = std::move(decoded.bitcode);
  executable->kernelTable = std::move(decoded.kernels);
  executable->jit = std::move(*jit);
  return executable;
}

} // namespace

// Code generation (when the binary has no machine code for this CPU) recurses like
// the build does: on the compiler's stack.
std::unique_ptr<Executable> load(const Binary &binary, const HostSymbols &hostSymbols,
                                 std::string &error) {
  return onCompilerStack([&] { return loadHere(binary, hostSymbols, error); },
                         [&](const std::string &how) {
                           error = "the compiler crashed generating code: " + how;
                           return std::unique_ptr<Executable>();
                         });
}

} // namespace fibercl::compiler
