// Runs Clang in-process: the source and any clCompileProgram headers live in an
// in-memory file system overlaid on the real one (so -I directories still work).
// Clang emits unoptimised IR; FiberCL's own pipeline (pipeline.cpp) optimises it.
#include "frontend.hpp"

#include "fibercl/builtins.hpp"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace fibercl::compiler {
namespace {

// Where the in-memory sources appear; diagnostics name the main file "<source>".
constexpr const char *kVirtualDir = kVirtualSourceDir;
constexpr const char *kMainFile = "/fibercl-input/<source>";

std::vector<std::string> cc1Arguments(const BuildOptions &options) {
  std::vector<std::string> args = {
      "-triple",
      "x86_64-unknown-linux-gnu",
      // SPIR-like address-space numbers (global 1, constant 2, local 3, generic 4):
      // the passes need to tell __local from the rest. The x86 backend treats every
      // address space below 256 as the flat one, so casts between them are free.
      "-ffake-address-space-map",
      // Builtin declarations from Clang's tables, not the 800 KB opencl-c.h header.
      "-finclude-default-header",
      "-fdeclare-opencl-builtins",
      "-cl-ext=" FIBERCL_CL_EXT,
      // Unoptimised IR without optnone: our pipeline optimises for the host.
      "-O2",
      "-disable-llvm-passes",
      // Debug info is line tables (for reports); assignment tracking only slows inlining.
      "-fexperimental-assignment-tracking=disabled",
      "-resource-dir",
      FIBERCL_CLANG_RESOURCE_DIR,
      "-internal-isystem",
      FIBERCL_CLANG_RESOURCE_DIR "/include",
      "-ffp-contract=on",
      "-I",
      kVirtualDir,
  };
  args.push_back("-cl-std=" + (options.clStd.empty() ? std::string("CL1.2") : options.clStd));
  // Clang defines the device's OpenCL version only for SPIR targets.
  args.push_back("-D__OPENCL_VERSION__=300");
  // Clang emits every kernel_arg_* but the names without it: names are what the
  // option makes available to clGetKernelArgInfo.
  if (options.kernelArgInfo)
    args.push_back("-cl-kernel-arg-info");
  // The device supports images (clang leaves the macro to the implementation).
  args.push_back("-D__IMAGE_SUPPORT__=1");
  // Every extension and (for OpenCL C 3.0) every optional feature the device reports
  // is a macro: Clang defines only the extensions it knows and the features only for
  // SPIR targets (redefining one it did define, to 1, is harmless).
  static const char *const kExtensionMacros[] = {
#define FCL_DEVICE_EXTENSION(name, major, minor) "-D" #name "=1",
#define FCL_OPENCL_C_FEATURE(name)
#include "fibercl/device_features.def"
#undef FCL_DEVICE_EXTENSION
#undef FCL_OPENCL_C_FEATURE
  };
  static const char *const kFeatureMacros[] = {
#define FCL_DEVICE_EXTENSION(name, major, minor)
#define FCL_OPENCL_C_FEATURE(name) "-D" #name "=1",
#include "fibercl/device_features.def"
#undef FCL_DEVICE_EXTENSION
#undef FCL_OPENCL_C_FEATURE
  };
  for (const char *m : kExtensionMacros)
    args.push_back(m);
  if (options.clStd == "CL3.0")
    for (const char *m : kFeatureMacros)
      args.push_back(m);
  // Vectors wider than 16 bytes change ABI with AVX; kernels are compiled for the
  // baseline and re-targeted to the host after linking, so the warning is noise.
  args.push_back("-Wno-psabi");
  if (options.debugInfo) {
    args.push_back("-debug-info-kind=constructor");
    args.push_back("-dwarf-version=4");
  } else {
    // Line tables cost little and let reports name file:line.
    args.push_back("-debug-info-kind=line-tables-only");
  }
  for (const auto &a : options.clangArgs)
    args.push_back(a);
  args.push_back("-x");
  args.push_back("cl");
  args.push_back(kMainFile);
  return args;
}

} // namespace

std::unique_ptr<llvm::Module> compileSource(llvm::LLVMContext &context, const std::string &source,
                                            const BuildOptions &options,
                                            const std::vector<Header> &headers, std::string &log) {
  std::string diagText;
  llvm::raw_string_ostream diagStream(diagText);

  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOpts = new clang::DiagnosticOptions();
  diagOpts->ShowColors = false;
  auto *printer = new clang::TextDiagnosticPrinter(diagStream, diagOpts.get());

  auto memFS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memFS->addFile(kMainFile, 0, llvm::MemoryBuffer::getMemBufferCopy(source, "<source>"));
  for (const auto &h : headers)
    memFS->addFile(std::string(kVirtualDir) + "/" + h.includeName, 0,
                   llvm::MemoryBuffer::getMemBufferCopy(h.source, h.includeName));
  // FiberCL's kernel-side libraries, unless the program brings a header of that name
  // (addFile keeps the first file added at a path).
  for (const auto &h : builtins::servedHeaders())
    memFS->addFile(std::string(kVirtualDir) + "/" + h.includeName, 0,
                   llvm::MemoryBuffer::getMemBuffer(h.text, h.includeName));
  auto overlay =
      llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  overlay->pushOverlay(memFS);

  auto argStrings = cc1Arguments(options);
  std::vector<const char *> argv;
  for (const auto &a : argStrings)
    argv.push_back(a.c_str());

  // As clang's own cc1 does: parse the arguments with a temporary diagnostics engine,
  // then create the real one from the parsed options, so -w and -Werror apply.
  clang::CompilerInstance ci;
  clang::DiagnosticsEngine argDiags(new clang::DiagnosticIDs(), diagOpts.get(),
                                    new clang::TextDiagnosticPrinter(diagStream, diagOpts.get()));
  bool ok = clang::CompilerInvocation::CreateFromArgs(ci.getInvocation(), argv, argDiags);
  ci.getDiagnosticOpts().ShowColors = false;
  ci.getDiagnosticOpts().ShowOptionNames = true; // "[-Wparentheses]" tells how to silence it
  ci.createDiagnostics(printer, /*ShouldOwnClient=*/true);
  ci.setVerboseOutputStream(diagStream); // "N errors generated." goes to the log too
  ok = ok && !argDiags.hasErrorOccurred();
  std::unique_ptr<llvm::Module> module;
  if (ok) {
    ci.createFileManager(overlay);
    clang::EmitLLVMOnlyAction action(&context);
    if (ci.ExecuteAction(action))
      module = action.takeModule();
  }
  diagStream.flush();
  // Clang prints the virtual path; users expect the name the spec's logs use.
  std::string cleaned;
  const std::string needle = std::string(kMainFile);
  size_t pos = 0;
  for (size_t hit; (hit = diagText.find(needle, pos)) != std::string::npos;
       pos = hit + needle.size())
    cleaned += diagText.substr(pos, hit - pos) + "<source>";
  cleaned += diagText.substr(pos);
  log += cleaned;
  return module;
}

} // namespace fibercl::compiler
