// readSpirv (spirv_reader.hpp).
#include "spirv_reader.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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

// The translator mangles pointer address spaces as numbers (PU3AS1i); Clang, which
// compiled the builtins library with the fake address-space map, names them
// (PU8CLglobali). Declarations get Clang's names so that the library's definitions
// are found (one vendor qualifier either way: substitution indices do not move).
void useClangAddressSpaceNames(llvm::Module &m) {
  static const std::pair<llvm::StringRef, llvm::StringRef> kNames[] = {
      {"U3AS1", "U8CLglobal"},
      {"U3AS2", "U10CLconstant"},
      {"U3AS3", "U7CLlocal"},
      {"U3AS4", "U9CLgeneric"},
  };
  std::vector<llvm::Function *> declarations;
  for (llvm::Function &f : m)
    if (f.isDeclaration() && f.getName().starts_with("_Z") && f.getName().contains("U3AS"))
      declarations.push_back(&f);
  for (llvm::Function *f : declarations) {
    std::string name = f->getName().str();
    for (const auto &[from, to] : kNames)
      for (size_t at = name.find(from.str()); at != std::string::npos;
           at = name.find(from.str(), at + to.size()))
        name.replace(at, from.size(), to.str());
    if (llvm::Function *same = m.getFunction(name)) {
      f->replaceAllUsesWith(same);
      f->eraseFromParent();
    } else {
      f->setName(name);
    }
  }
}

// SPIR-V's printf (OpenCL.std) passes float operands as they are; OpenCL C's printf,
// like C's, receives them promoted to double, which is what the runtime's reads.
void promotePrintfArguments(llvm::Module &m) {
  llvm::Function *printfFn = m.getFunction("printf");
  if (!printfFn)
    return;
  llvm::Type *dbl = llvm::Type::getDoubleTy(m.getContext());
  for (llvm::User *u : printfFn->users())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(u))
      for (unsigned i = 1; i < call->arg_size(); ++i) {
        llvm::Value *a = call->getArgOperand(i);
        if (a->getType()->isFloatTy() || a->getType()->isHalfTy())
          call->setArgOperand(i, new llvm::FPExtInst(a, dbl, "", call));
      }
}

} // namespace

namespace {

const char *const kNoTranslator =
    "error: SPIR-V programs need the SPIRV-LLVM-Translator: install Debian's llvm-spirv-15 "
    "(or set FIBERCL_LLVM_SPIRV to an llvm-spirv program)\n";

// Runs the translator on the module `il` with `args` before its input's path (and
// `after` after it); what it prints is in `said`. False, with why in `log`, if it could
// not run or failed.
bool runTranslator(const std::string &il, const std::vector<std::string> &args,
                   const std::vector<std::string> &after, std::string &said, std::string &log) {
  std::string translator = spirvTranslator();
  if (translator.empty()) {
    log += kNoTranslator;
    return false;
  }
  TempFile in, printed;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("fibercl", "spv", fd, in.path) ||
      llvm::sys::fs::createTemporaryFile("fibercl", "txt", printed.path)) {
    log += "error: cannot create temporary files for the SPIR-V translator\n";
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(il.data(), il.size());
  }
  std::vector<llvm::StringRef> argv{translator};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back(in.path);
  argv.insert(argv.end(), after.begin(), after.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, printed.path.str(),
                                                printed.path.str()};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(translator, argv, std::nullopt, redirects,
                                     /*timeout=*/120, 0, &execError);
  if (auto text = llvm::MemoryBuffer::getFile(printed.path))
    said = (*text)->getBuffer().str();
  if (rc != 0) {
    log += "error: the SPIR-V translator (" + translator + ") rejected the program";
    if (!execError.empty())
      log += ": " + execError;
    log += "\n" + said;
    return false;
  }
  return true;
}

// --spec-const=<id:type:value ...>: the values as integers of the constant's size (the
// translator stores the bits whatever the constant's type). llvm-spirv-15 cannot parse
// 64-bit integers from about 2^59 on, so a wide 8-byte value goes as the double with
// the same bits, in hexadecimal (exact); a NaN's bits cannot go that way: nullopt.
std::optional<std::string> specConstArgument(const SpecConstants &values, std::string &log) {
  std::string arg = "--spec-const=";
  for (const auto &[id, c] : values) {
    std::string value;
    if (c.size == 8 && c.bits >= (uint64_t(1) << 32)) {
      double d;
      std::memcpy(&d, &c.bits, sizeof d);
      if (std::isnan(d)) {
        log += "error: specialization constant " + std::to_string(id) +
               ": the SPIR-V translator cannot take the 64-bit value " + std::to_string(c.bits) +
               "\n";
        return std::nullopt;
      }
      char text[64];
      std::snprintf(text, sizeof text, "f64:%a", d);
      value = text;
    } else {
      value = std::string(c.size == 1   ? "i8"
                          : c.size == 2 ? "i16"
                          : c.size == 4 ? "i32"
                                        : "i64") +
              ':' + std::to_string(c.bits);
    }
    if (arg.back() != '=')
      arg += ' ';
    arg += std::to_string(id) + ':' + value;
  }
  return arg;
}

} // namespace

std::unique_ptr<llvm::Module> readSpirv(llvm::LLVMContext &context, const std::string &il,
                                        const SpecConstants &specConstants, std::string &log) {
  TempFile out;
  if (llvm::sys::fs::createTemporaryFile("fibercl", "bc", out.path)) {
    log += "error: cannot create temporary files for the SPIR-V translator\n";
    return nullptr;
  }
  std::vector<std::string> args = {"-r", "--spirv-target-env=CL2.0"};
  if (!specConstants.empty()) {
    std::optional<std::string> values = specConstArgument(specConstants, log);
    if (!values)
      return nullptr;
    args.push_back(*values);
  }
  std::string said;
  if (!runTranslator(il, args, {"-o", std::string(out.path.str())}, said, log))
    return nullptr;
  auto bytes = llvm::MemoryBuffer::getFile(out.path);
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
  useClangAddressSpaceNames(**m);
  promotePrintfArguments(**m);
  return std::move(*m);
}

std::optional<std::map<uint32_t, uint32_t>> specConstantSizes(const std::string &il,
                                                              std::string &log) {
  std::string said;
  if (!runTranslator(il, {"--spec-const-info"}, {}, said, log))
    return std::nullopt;
  // "Spec const id = 101, size in bytes = 4", one line per constant.
  std::map<uint32_t, uint32_t> sizes;
  llvm::SmallVector<llvm::StringRef, 8> lines;
  llvm::StringRef(said).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    unsigned id = 0, size = 0;
    if (std::sscanf(line.str().c_str(), "Spec const id = %u, size in bytes = %u", &id, &size) == 2)
      sizes[id] = size;
  }
  return sizes;
}

} // namespace fibercl::compiler
