// The compiler's public API (fibercl/compiler/compiler.hpp): compile, link and build,
// in terms of the frontend, the linker and the executable pipeline.
#include "fibercl/compiler/compiler.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/raw_ostream.h>

#include <mutex>
#include <optional>
#include <unordered_map>

#include "binary_format.hpp"
#include "build_options.hpp"
#include "build_timer.hpp"
#include "compiler_stack.hpp"
#include "disk_cache.hpp"
#include "frontend.hpp"
#include "host_target.hpp"
#include "passes/passes.hpp"
#include "pipeline.hpp"
#include "spirv_reader.hpp"

namespace fibercl::compiler {
namespace {

std::string toBitcode(const llvm::Module &m) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(m, os);
  os.flush();
  return bytes;
}

Result failure(std::string log, bool invalidOptions = false) {
  Result r;
  r.log = std::move(log);
  r.invalidOptions = invalidOptions;
  return r;
}

// A build whose compiler crashed (build_guard.hpp): a failure that says so. Nothing of
// it is cached; the process and later builds go on.
Result crashed(const std::string &how) {
  const BuildTimer *timer = BuildTimer::current();
  return failure("error: the compiler crashed: " + how + ", after the '" +
                 (timer ? timer->lastPhase() : "start") +
                 "' phase of the build. This is a bug in FiberCL (or in Clang/LLVM), not "
                 "necessarily in the program: please report it with the program's source "
                 "and build options (FIBERCL_DEBUG=verify names a FiberCL pass that leaves "
                 "invalid IR). Nothing of this build was kept; the application and other "
                 "builds go on.\n");
}

// A successful compile: the module as a compiled object (bitcode), with the log.
Result compiledObject(const llvm::Module &m, std::string log) {
  Result r;
  r.success = true;
  r.log = std::move(log);
  r.binary = encodeBinary(BinaryKind::CompiledObject, {}, toBitcode(m));
  return r;
}

Result executableFrom(llvm::Module &m, const BuildOptions &options, std::string log) {
  std::vector<KernelInfo> kernels;
  if (!finalizeExecutable(m, options, kernels, log))
    return failure(std::move(log));
  Result r;
  r.success = true;
  r.log = std::move(log);
  r.kernels = kernels;
  std::string bitcode = toBitcode(m); // before codegen, which may alter the IR
  buildPhaseDone("bitcode");
  std::string object = emitHostObject(m);
  buildPhaseDone("codegen");
  r.binary = encodeBinary(BinaryKind::Executable, kernels, bitcode, hostTargetKey(), object);
  return r;
}

// Collects the linker's diagnostics into a build log.
struct DiagnosticCollector {
  std::string text;
  static void handle(const llvm::DiagnosticInfo *info, void *self) {
    auto *c = static_cast<DiagnosticCollector *>(self);
    llvm::raw_string_ostream os(c->text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    os << (info->getSeverity() == llvm::DS_Error ? "error: " : "warning: ");
    info->print(printer);
    os << "\n";
  }
};

// Builds from source are cached in memory (same source and options, same result):
// applications commonly rebuild the same program.
class BuildCache {
public:
  bool find(const std::string &key, Result &out) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end())
      return false;
    out = it->second;
    return true;
  }
  void store(const std::string &key, const Result &r) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() > 64)
      entries_.clear();
    entries_[key] = r;
  }

private:
  std::mutex mutex_;
  std::unordered_map<std::string, Result> entries_;
};

BuildCache &buildCache() {
  static BuildCache cache;
  return cache;
}

} // namespace

// A length-prefixed field of a disk-cache key (compile's headers, link's inputs).
static void addKeyField(std::string &key, const void *data, size_t n) {
  key.append(reinterpret_cast<const char *>(&n), sizeof n);
  key.append(static_cast<const char *>(data), n);
}

// Options that make the frontend read files (-I directories): their headers are not
// in the key, so such builds are not cached on disk (a changed header must count).
static bool readsFiles(const std::string &options) {
  return options.find("-I") != std::string::npos;
}

// A result from the disk cache, or nothing.
static std::optional<Result> fromDiskCache(const std::string &key, BinaryKind kind) {
  if (key.empty())
    return std::nullopt;
  auto entry = cacheLoad(key);
  if (!entry || inspect(entry->binary.data(), entry->binary.size()) != kind)
    return std::nullopt;
  Result r;
  r.success = true;
  r.log = std::move(entry->log);
  r.binary = Binary{kind, std::move(entry->binary)};
  if (kind == BinaryKind::Executable)
    r.kernels = kernelsOf(r.binary);
  return r;
}

Result compile(const std::string &source, const std::string &options,
               const std::vector<Header> &headers) {
  BuildOptions parsed = parseBuildOptions(options, OptionsFor::Compile);
  if (!parsed.error.empty())
    return failure("error: " + parsed.error + "\n", true);
  BuildTimer timer;
  // Cached on disk like builds: the key covers the embedded headers too.
  std::string keyed = "compile";
  for (const Header &h : headers) {
    addKeyField(keyed, h.includeName.data(), h.includeName.size());
    addKeyField(keyed, h.source.data(), h.source.size());
  }
  addKeyField(keyed, source.data(), source.size());
  std::string diskKey = readsFiles(options) ? std::string() : cacheKey(keyed, options);
  if (auto cached = fromDiskCache(diskKey, BinaryKind::CompiledObject))
    return *cached;
  buildPhaseDone("cache-lookup");
  Result r = onCompilerStack(
      [&] {
        llvm::LLVMContext context;
        std::string log;
        auto m = compileSource(context, source, parsed, headers, log);
        buildPhaseDone("frontend");
        return m ? compiledObject(*m, std::move(log)) : failure(std::move(log));
      },
      crashed);
  if (r.success && !diskKey.empty()) {
    cacheStore(diskKey, {r.binary.bytes, r.log});
    buildPhaseDone("cache-store");
  }
  return r;
}

// Links the inputs into a library or an executable (on the compiler's stack).
static Result linkModules(const std::vector<const Binary *> &inputs, const BuildOptions &parsed,
                          bool createLibrary) {
  llvm::LLVMContext context;
  DiagnosticCollector diagnostics;
  context.setDiagnosticHandlerCallBack(DiagnosticCollector::handle, &diagnostics);
  auto linked = std::make_unique<llvm::Module>("fibercl-linked", context);
  llvm::Linker linker(*linked);
  for (const Binary *input : inputs) {
    DecodedBinary decoded;
    if (!input || !decodeBinary(input->bytes.data(), input->bytes.size(), decoded) ||
        (decoded.kind != BinaryKind::CompiledObject && decoded.kind != BinaryKind::Library))
      return failure("error: an input is not a compiled object or library\n");
    auto m = llvm::parseBitcodeFile(llvm::MemoryBufferRef(decoded.bitcode, "input"), context);
    if (!m)
      return failure("error: corrupt input: " + llvm::toString(m.takeError()) + "\n");
    if (linked->getTargetTriple().empty()) {
      linked->setTargetTriple((*m)->getTargetTriple());
      linked->setDataLayout((*m)->getDataLayout());
    }
    if (linker.linkInModule(std::move(*m)))
      return failure(diagnostics.text.empty() ? "error: linking failed\n" : diagnostics.text);
  }
  buildPhaseDone("link");
  Result r;
  if (createLibrary) {
    r.success = true;
    r.log = diagnostics.text;
    r.binary = encodeBinary(BinaryKind::Library, {}, toBitcode(*linked));
  } else {
    r = executableFrom(*linked, parsed, diagnostics.text);
  }
  return r;
}

Result link(const std::vector<const Binary *> &inputs, const std::string &options,
            bool createLibrary) {
  BuildOptions parsed = parseBuildOptions(options, OptionsFor::Link);
  if (!parsed.error.empty())
    return failure("error: " + parsed.error + "\n", true);
  createLibrary = createLibrary || parsed.createLibrary;
  BuildTimer timer;
  // Cached on disk: the same inputs and options link to the same result (the costly
  // part of a big program's clCompileProgram + clLinkProgram is here).
  std::string keyed = createLibrary ? "link-library" : "link";
  for (const Binary *input : inputs)
    if (input)
      addKeyField(keyed, input->bytes.data(), input->bytes.size());
  std::string diskKey = cacheKey(keyed, options);
  const BinaryKind resultKind = createLibrary ? BinaryKind::Library : BinaryKind::Executable;
  if (auto cached = fromDiskCache(diskKey, resultKind))
    return *cached;
  buildPhaseDone("cache-lookup");
  Result r = onCompilerStack([&] { return linkModules(inputs, parsed, createLibrary); }, crashed);
  if (r.success) {
    cacheStore(diskKey, {r.binary.bytes, r.log});
    buildPhaseDone("cache-store");
  }
  return r;
}

bool uniformWorkGroups(const std::string &options) {
  return parseBuildOptions(options, OptionsFor::Build).uniformWorkGroups;
}

Result build(const std::string &source, const std::string &options) {
  BuildOptions parsed = parseBuildOptions(options, OptionsFor::Build);
  if (!parsed.error.empty())
    return failure("error: " + parsed.error + "\n", true);
  BuildTimer timer;
  std::string key = environmentKey() + '\0' + options + '\0' + source;
  Result cached;
  if (buildCache().find(key, cached))
    return cached;
  std::string diskKey = readsFiles(options) ? std::string() : cacheKey(source, options);
  if (auto r = fromDiskCache(diskKey, BinaryKind::Executable)) {
    buildCache().store(key, *r);
    return *r;
  }
  buildPhaseDone("cache-lookup");
  Result r = onCompilerStack(
      [&] {
        llvm::LLVMContext context;
        std::string log;
        auto m = compileSource(context, source, parsed, {}, log);
        buildPhaseDone("frontend");
        if (!m)
          return failure(std::move(log));
        return executableFrom(*m, parsed, std::move(log));
      },
      crashed);
  if (r.success) {
    buildCache().store(key, r);
    if (!diskKey.empty()) {
      cacheStore(diskKey, {r.binary.bytes, r.log});
      buildPhaseDone("cache-store");
    }
  }
  return r;
}

bool isSpirv(const void *bytes, size_t size) { return looksLikeSpirv(bytes, size); }

bool spirvAvailable() {
  static const bool available = !spirvTranslator().empty();
  return available;
}

Result compileIL(const std::string &il, const std::string &options,
                 const SpecConstants &specConstants) {
  BuildOptions parsed = parseBuildOptions(options, OptionsFor::Compile);
  if (!parsed.error.empty())
    return failure("error: " + parsed.error + "\n", true);
  BuildTimer timer;
  return onCompilerStack(
      [&] {
        llvm::LLVMContext context;
        std::string log;
        auto m = readSpirv(context, il, specConstants, log);
        buildPhaseDone("spirv");
        return m ? compiledObject(*m, std::move(log)) : failure(std::move(log));
      },
      crashed);
}

Result buildIL(const std::string &il, const std::string &options,
               const SpecConstants &specConstants) {
  BuildOptions parsed = parseBuildOptions(options, OptionsFor::Build);
  if (!parsed.error.empty())
    return failure("error: " + parsed.error + "\n", true);
  BuildTimer timer;
  std::string specKey;
  for (const auto &[id, c] : specConstants)
    specKey +=
        std::to_string(id) + ':' + std::to_string(c.size) + ':' + std::to_string(c.bits) + ';';
  std::string diskKey = cacheKey("spirv" + specKey + '\n' + il, options);
  if (auto r = fromDiskCache(diskKey, BinaryKind::Executable))
    return *r;
  Result r = onCompilerStack(
      [&] {
        llvm::LLVMContext context;
        std::string log;
        auto m = readSpirv(context, il, specConstants, log);
        buildPhaseDone("spirv");
        if (!m)
          return failure(std::move(log));
        return executableFrom(*m, parsed, std::move(log));
      },
      crashed);
  if (r.success)
    cacheStore(diskKey, {r.binary.bytes, r.log});
  return r;
}

Result buildFromBinary(const Binary &binary, const std::string &options) {
  DecodedBinary decoded;
  if (!decodeBinary(binary.bytes.data(), binary.bytes.size(), decoded))
    return failure("error: not a FiberCL binary\n");
  if (decoded.kind == BinaryKind::Executable) {
    Result r;
    r.success = true;
    r.binary = binary;
    r.kernels = std::move(decoded.kernels);
    return r;
  }
  // The build options were applied when the object was compiled.
  return link({&binary}, "", false);
}

BinaryKind inspect(const uint8_t *bytes, size_t size) {
  DecodedBinary decoded;
  return decodeBinary(bytes, size, decoded) ? decoded.kind : BinaryKind::None;
}

uint64_t globalVariableBytes(const Binary &executable) {
  DecodedBinary decoded;
  if (!decodeBinary(executable.bytes.data(), executable.bytes.size(), decoded) ||
      decoded.kind != BinaryKind::Executable)
    return 0;
  llvm::LLVMContext context;
  auto m =
      llvm::getLazyBitcodeModule(llvm::MemoryBufferRef(decoded.bitcode, "executable"), context);
  if (!m) {
    llvm::consumeError(m.takeError());
    return 0;
  }
  if (llvm::Error err = (*m)->materializeMetadata()) {
    llvm::consumeError(std::move(err));
    return 0;
  }
  const llvm::NamedMDNode *md = (*m)->getNamedMetadata(kGlobalVariableBytesMetadata);
  if (!md || md->getNumOperands() == 0 || md->getOperand(0)->getNumOperands() == 0)
    return 0;
  auto *value = llvm::mdconst::dyn_extract<llvm::ConstantInt>(md->getOperand(0)->getOperand(0));
  return value ? value->getZExtValue() : 0;
}

std::vector<KernelInfo> kernelsOf(const Binary &executable) {
  DecodedBinary decoded;
  if (!decodeBinary(executable.bytes.data(), executable.bytes.size(), decoded))
    return {};
  return decoded.kernels;
}

} // namespace fibercl::compiler
