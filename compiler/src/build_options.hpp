// OpenCL build options (clBuildProgram / clCompileProgram / clLinkProgram) parsed into
// Clang arguments and FiberCL's own settings.
#pragma once

#include <string>
#include <vector>

namespace fibercl::compiler {

struct BuildOptions {
  std::vector<std::string> clangArgs; // cc1 arguments the options translate to
  std::string clStd;                  // "CL1.2", "CL3.0", ... ("" = default)
  bool optDisable = false;            // -cl-opt-disable
  // Launches must use uniform work-groups: -cl-uniform-work-group-size, or an OpenCL C
  // version before 2.0 (the default CL1.2), where non-uniform work-groups do not exist.
  bool uniformWorkGroups = true;
  bool debugInfo = false;         // -g
  bool kernelArgInfo = false;     // -cl-kernel-arg-info (argument names kept)
  bool createLibrary = false;     // -create-library (link only)
  bool enableLinkOptions = false; // -enable-link-options (link only)
  std::string error;              // non-empty: the options are invalid
};

// Which call the options were given to: the accepted set differs.
enum class OptionsFor { Compile, Link, Build };

BuildOptions parseBuildOptions(const std::string &options, OptionsFor purpose);

} // namespace fibercl::compiler
