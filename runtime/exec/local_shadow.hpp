// FIBERCL_CHECK=uninit (compiler/src/passes/access_checks.cpp): the second half of a
// group's __local block is its shadow, a byte per byte, equal to the group's tag
// (fcl_group_ctx::local_shadow_tag) once a work-item of the group wrote that byte. The
// groups a runner runs one after the other on its block take the next tag, so what
// the group before wrote reads as unwritten without clearing the shadow a group: it is
// cleared when the tags wrap (every 255 groups) and when a runner takes the block.
#pragma once

#include <cstdint>
#include <cstring>

#include "fibercl/kernel_abi.h"

namespace fibercl::exec {

class LocalShadow {
public:
  // A runner starting its groups on `block`, whose shadow is `bytes` from its start
  // (NDRange::localShadow; 0: the kernel is not checked for uninit).
  LocalShadow(void *block, uint64_t bytes) noexcept
      : shadow_(static_cast<unsigned char *>(block) + bytes), bytes_(bytes) {
    if (bytes_)
      std::memset(shadow_, 0, bytes_);
  }
  // The next group's tag, in every byte of ctx.local_shadow_tag.
  void nextGroup(fcl_group_ctx &ctx) noexcept {
    if (!bytes_)
      return;
    if (++tag_ == 0) {
      std::memset(shadow_, 0, bytes_);
      tag_ = 1;
    }
    setTag(ctx, tag_);
  }
  // Every byte of the tag fields `tag`.
  static void setTag(fcl_group_ctx &ctx, uint8_t tag) noexcept {
    std::memset(ctx.local_shadow_tag, tag, sizeof ctx.local_shadow_tag);
  }

private:
  unsigned char *shadow_;
  uint64_t bytes_;
  uint8_t tag_ = 0;
};

} // namespace fibercl::exec
