// FIBERCL_PERF_MAP=1: the JIT's functions named for `perf` (Linux perf's map file,
// /tmp/perf-<pid>.map: "start size name" per line), so that `perf report` shows a
// kernel's work-group function and its checks by name instead of raw addresses.
#pragma once

namespace llvm::orc {
class LLJIT;
}

namespace fibercl::compiler {

// Adds the map writer to `jit`'s object linking layer, if FIBERCL_PERF_MAP is set.
void addPerfMap(llvm::orc::LLJIT &jit);

} // namespace fibercl::compiler
