// FIBERCL_DUMP_SOURCES=<dir>: every OpenCL C program an application builds or compiles
// is written there, `<hash>.cl` with its options in `<hash>.options`; a program given to
// clCompileProgram (to be linked on its own) gets an empty `<hash>.compile` beside it
// and each of its embedded headers as `<hash>.headers/<include name>`
// (the hash covers all of it, so a program built twice is written once). It is the
// real-kernel corpus that scripts/rebuild_sources.sh rebuilds under FIBERCL_DEBUG=verify
// (issue 28).
#pragma once

#include <string>
#include <vector>

namespace fibercl::compiler {
struct Header;
}

namespace fibercl::runtime {

enum class Capture { Build, Compile };

void dumpSource(Capture how, const std::string &source, const std::string &options,
                const std::vector<compiler::Header> &headers = {});

} // namespace fibercl::runtime
