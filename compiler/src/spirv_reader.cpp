// readSpirv (spirv_reader.hpp).
#include "spirv_reader.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace fibercl::compiler {

bool looksLikeSpirv(const void *bytes, size_t size) {
  if (!bytes || size < 20 || size % 4 != 0)
    return false;
  uint32_t magic;
  std::memcpy(&magic, bytes, 4);
  return magic == 0x07230203u || magic == 0x03022307u;
}

std::string spirvTranslator() {
  if (const char *env = std::getenv("FIBERCL_LLVM_SPIRV"); env && *env)
    return env;
  auto found = llvm::sys::findProgramByName("llvm-spirv-15");
  return found ? *found : std::string();
}

namespace {

// Removes a temporary file when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

// The translator marks non-kernel functions spir_func; FiberCL's builtins and its
// frontend's output use the C convention, and a call whose convention differs from its
// callee's is undefined (LLVM turns it into unreachable).
void useCCallingConvention(llvm::Module &m) {
  for (llvm::Function &f : m) {
    if (f.getCallingConv() == llvm::CallingConv::SPIR_FUNC)
      f.setCallingConv(llvm::CallingConv::C);
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
          if (call->getCallingConv() == llvm::CallingConv::SPIR_FUNC)
            call->setCallingConv(llvm::CallingConv::C);
  }
}

} // namespace

std::unique_ptr<llvm::Module> readSpirv(llvm::LLVMContext &context, const std::string &il,
                                        std::string &log) {
  std::string translator = spirvTranslator();
  if (translator.empty()) {
    log += "error: SPIR-V programs need the SPIRV-LLVM-Translator: install Debian's "
           "llvm-spirv-15 (or set FIBERCL_LLVM_SPIRV to an llvm-spirv program)\n";
    return nullptr;
  }
  TempFile in, out, err;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("fibercl", "spv", fd, in.path) ||
      llvm::sys::fs::createTemporaryFile("fibercl", "bc", out.path) ||
      llvm::sys::fs::createTemporaryFile("fibercl", "txt", err.path)) {
    log += "error: cannot create temporary files for the SPIR-V translator\n";
    return nullptr;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(il.data(), il.size());
  }
  std::string inPath(in.path.str()), outPath(out.path.str());
  llvm::StringRef args[] = {translator, "-r", "--spirv-target-env=CL2.0", inPath, "-o", outPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, err.path.str(), err.path.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(translator, args, std::nullopt, redirects, /*timeout=*/120,
                                     0, &execError);
  if (rc != 0) {
    log += "error: the SPIR-V translator (" + translator + ") rejected the program";
    if (!execError.empty())
      log += ": " + execError;
    log += "\n";
    if (auto text = llvm::MemoryBuffer::getFile(err.path))
      log += (*text)->getBuffer().str();
    return nullptr;
  }
  auto bytes = llvm::MemoryBuffer::getFile(outPath);
  if (!bytes) {
    log += "error: the SPIR-V translator wrote no module\n";
    return nullptr;
  }
  auto m = llvm::parseBitcodeFile((*bytes)->getMemBufferRef(), context);
  if (!m) {
    log += "error: cannot read the translated SPIR-V: " + llvm::toString(m.takeError()) + "\n";
    return nullptr;
  }
  useCCallingConvention(**m);
  return std::move(*m);
}

} // namespace fibercl::compiler
