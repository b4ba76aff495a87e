// Host target machine (host_target.hpp).
#include "host_target.hpp"
#include "vector_math.hpp"

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

namespace fibercl::compiler {

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

void configureHostCodegen(llvm::orc::JITTargetMachineBuilder &builder) {
  builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  builder.setCodeModel(llvm::CodeModel::Small);
  builder.setRelocationModel(llvm::Reloc::PIC_);
}

std::unique_ptr<llvm::TargetMachine> createHostTargetMachine() {
  initializeNativeTarget();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    llvm::consumeError(jtmb.takeError());
    return nullptr;
  }
  configureHostCodegen(*jtmb);
  auto tm = jtmb->createTargetMachine();
  if (!tm) {
    llvm::consumeError(tm.takeError());
    return nullptr;
  }
  return std::move(*tm);
}

} // namespace fibercl::compiler

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

namespace fibercl::compiler {

std::string hostTargetKey() {
  static const std::string key = [] {
    auto tm = createHostTargetMachine();
    if (!tm)
      return std::string();
    // Objects call the vector math library only where it was available.
    return tm->getTargetTriple().str() + ";" + tm->getTargetCPU().str() + ";" +
           tm->getTargetFeatureString().str() + (vectorMathAvailable() ? ";vecmath" : "");
  }();
  return key;
}

std::string emitHostObject(llvm::Module &module) {
  auto tm = createHostTargetMachine();
  if (!tm)
    return {};
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm; // codegen still runs on the legacy pass manager
  // Explicit vector math calls (sin(float8)) become the vector variants here.
  llvm::TargetLibraryInfoImpl tlii(tm->getTargetTriple());
  addVectorMathFunctions(tlii, *tm, /*withGuarded=*/false);
  pm.add(new llvm::TargetLibraryInfoWrapperPass(tlii));
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    return {};
  pm.run(module);
  return std::string(object.begin(), object.end());
}

} // namespace fibercl::compiler
