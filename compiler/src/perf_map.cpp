// addPerfMap (perf_map.hpp): after JITLink fixes a graph's addresses, each callable
// symbol it defines is appended to /tmp/perf-<pid>.map.
#include "perf_map.hpp"

#include <llvm/ExecutionEngine/JITLink/JITLink.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unistd.h>

namespace fibercl::compiler {
namespace {

class PerfMapPlugin final : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(llvm::orc::MaterializationResponsibility &, llvm::jitlink::LinkGraph &,
                        llvm::jitlink::PassConfiguration &config) override {
    config.PostFixupPasses.push_back([](llvm::jitlink::LinkGraph &g) {
      static std::mutex mutex;
      std::lock_guard<std::mutex> lock(mutex);
      std::string path = "/tmp/perf-" + std::to_string(getpid()) + ".map";
      if (FILE *map = std::fopen(path.c_str(), "a")) {
        for (llvm::jitlink::Symbol *s : g.defined_symbols())
          if (s->hasName() && s->isCallable() && s->getSize() > 0)
            std::fprintf(map, "%llx %llx %s\n",
                         static_cast<unsigned long long>(s->getAddress().getValue()),
                         static_cast<unsigned long long>(s->getSize()), s->getName().str().c_str());
        std::fclose(map);
      }
      return llvm::Error::success();
    });
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility &) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib &, llvm::orc::ResourceKey) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib &, llvm::orc::ResourceKey,
                                   llvm::orc::ResourceKey) override {}
};

} // namespace

void addPerfMap(llvm::orc::LLJIT &jit) {
  const char *on = std::getenv("FIBERCL_PERF_MAP");
  if (!on || !*on || std::string(on) == "0")
    return;
  if (auto *layer = llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(&jit.getObjLinkingLayer()))
    layer->addPlugin(std::make_unique<PerfMapPlugin>());
}

} // namespace fibercl::compiler
