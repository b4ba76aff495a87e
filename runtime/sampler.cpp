// cl_sampler (sampler.hpp).
#include "runtime/sampler.hpp"
#include "runtime/context.hpp"

#include "fibercl/image_abi.h"

namespace fibercl::runtime {

Sampler::Sampler(Context &context, bool normalizedCoords, cl_addressing_mode addressing,
                 cl_filter_mode filter, std::vector<cl_sampler_properties> properties)
    : context_(context), normalized_(normalizedCoords), addressing_(addressing), filter_(filter),
      properties_(std::move(properties)) {}

uint64_t Sampler::kernelBits() const {
  // Clang's CLK_* encoding: CLK_ADDRESS_NONE..MIRRORED_REPEAT are 0, 2, 4, 6, 8 in the
  // order of CL_ADDRESS_NONE (0x1130)..CL_ADDRESS_MIRRORED_REPEAT (0x1134).
  uint64_t bits = normalized_ ? FCL_SAMPLER_NORMALIZED_COORDS : 0;
  bits |= (uint64_t(addressing_ - CL_ADDRESS_NONE) * 2) & FCL_SAMPLER_ADDRESS_MASK;
  bits |= filter_ == CL_FILTER_LINEAR ? 0x20 : 0x10;
  return bits;
}

} // namespace fibercl::runtime
