// libFuzzer target: the OpenCL build-option parser (compiler/src/build_options.cpp) on
// arbitrary strings, for each of clBuildProgram, clCompileProgram and clLinkProgram.
// Invalid options must come back as an error message, never a crash; valid ones as
// Clang arguments without empty words.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "build_options.hpp"

using namespace fibercl::compiler;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string options(reinterpret_cast<const char *>(data), size);
  for (OptionsFor purpose : {OptionsFor::Build, OptionsFor::Compile, OptionsFor::Link}) {
    BuildOptions parsed = parseBuildOptions(options, purpose);
    if (!parsed.error.empty())
      continue;
    for (const std::string &arg : parsed.clangArgs)
      if (arg.empty())
        std::abort(); // an empty argument would reach Clang
  }
  return 0;
}
