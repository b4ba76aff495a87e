// The host functions JIT-compiled kernels call, by symbol name.
#include "runtime/exec/executor.hpp"
#include "runtime/exec/printf.hpp"
#include "runtime/exec/runner.hpp"

#include "fibercl/pipe_abi.h"

extern "C" void __fibercl_host_run_items(fcl_group_ctx *ctx, fcl_item_fn item,
                                         void **args) noexcept;
extern "C" void __fibercl_host_barrier(fcl_group_ctx *ctx, fcl_u32 site,
                                       fcl_u32 flags) noexcept;
extern "C" void *__fibercl_host_regions_begin(fcl_group_ctx *ctx, fcl_u32 n,
                                              fcl_u64 bytes) noexcept;
extern "C" fcl_u32 __fibercl_host_round_end(fcl_group_ctx *ctx, const fcl_u32 *sites,
                                            fcl_u32 n, fcl_u32 region) noexcept;
extern "C" void __fibercl_host_regions_end(fcl_group_ctx *ctx) noexcept;
extern "C" void __fibercl_host_yield(fcl_group_ctx *ctx, fcl_u32 site) noexcept;
extern "C" fcl_u32 __fibercl_host_coop(fcl_group_ctx *ctx, fcl_u32 op, fcl_u32 site,
                                       fcl_u32 x, fcl_u32 y, fcl_u32 z, uint8_t *frame,
                                       fcl_u64 frameSize) noexcept;
extern "C" [[noreturn]] void __fibercl_host_endless_loop(const char *where) noexcept {
  fibercl::exec::endlessLoop(where);
}
extern "C" fcl_u64 __fibercl_host_pipe_reserve(fcl_pipe *pipe, fcl_u32 n,
                                               fcl_u32 write) noexcept;
extern "C" void __fibercl_host_pipe_commit(fcl_pipe *pipe, fcl_u64 reservation,
                                           fcl_u32 write) noexcept;
extern "C" fcl_u32 __fibercl_host_pipe_packets(fcl_pipe *pipe, fcl_u32 write) noexcept;

namespace fibercl::exec {

std::map<std::string, void *> hostSymbols() {
  return {
      {FIBERCL_HOST_RUN_ITEMS, reinterpret_cast<void *>(&__fibercl_host_run_items)},
      {FIBERCL_HOST_BARRIER, reinterpret_cast<void *>(&__fibercl_host_barrier)},
      {FIBERCL_HOST_REGIONS_BEGIN, reinterpret_cast<void *>(&__fibercl_host_regions_begin)},
      {FIBERCL_HOST_ROUND_END, reinterpret_cast<void *>(&__fibercl_host_round_end)},
      {FIBERCL_HOST_REGIONS_END, reinterpret_cast<void *>(&__fibercl_host_regions_end)},
      {FIBERCL_HOST_YIELD, reinterpret_cast<void *>(&__fibercl_host_yield)},
      {FIBERCL_HOST_ENDLESS_LOOP, reinterpret_cast<void *>(&__fibercl_host_endless_loop)},
      {FIBERCL_HOST_PRINTF, reinterpret_cast<void *>(&__fibercl_printf)},
      {FIBERCL_HOST_COOP, reinterpret_cast<void *>(&__fibercl_host_coop)},
      {FIBERCL_HOST_PIPE_RESERVE, reinterpret_cast<void *>(&__fibercl_host_pipe_reserve)},
      {FIBERCL_HOST_PIPE_COMMIT, reinterpret_cast<void *>(&__fibercl_host_pipe_commit)},
      {FIBERCL_HOST_PIPE_PACKETS, reinterpret_cast<void *>(&__fibercl_host_pipe_packets)},
  };
}

} // namespace fibercl::exec
