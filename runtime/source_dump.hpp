// FIBERCL_DUMP_SOURCES=<dir>: every OpenCL C program an application builds or compiles
// is written there, `<hash>.cl` with its options in `<hash>.options` (the hash covers
// both, so a program built twice is written once), for the real-kernel corpus that
// scripts/rebuild_sources.sh rebuilds under FIBERCL_DEBUG=verify (issue 28).
// clCompileProgram's embedded headers are not written.
#pragma once

#include <string>

namespace fibercl::runtime {

void dumpSource(const std::string &source, const std::string &options);

} // namespace fibercl::runtime
