// cl_sampler: how kernels sample an image. Kernels never see the object: a sampler
// argument carries its bits (fibercl/image_abi.h), the same encoding Clang gives the
// samplers a program declares.
#pragma once

#include "runtime/object.hpp"

#include <cstdint>
#include <vector>

namespace fibercl::runtime {

class Context;

class Sampler : public Object<Sampler, cl_sampler> {
public:
  static constexpr Tag kTag = Tag::Sampler;
  static constexpr cl_int kInvalidError = CL_INVALID_SAMPLER;

  // Modes are validated by the caller.
  Sampler(Context &context, bool normalizedCoords, cl_addressing_mode addressing,
          cl_filter_mode filter, std::vector<cl_sampler_properties> properties);

  Context &context() const { return *context_; }
  bool normalizedCoords() const { return normalized_; }
  cl_addressing_mode addressingMode() const { return addressing_; }
  cl_filter_mode filterMode() const { return filter_; }
  const std::vector<cl_sampler_properties> &properties() const { return properties_; }
  // What a kernel's sampler argument holds.
  uint64_t kernelBits() const;

private:
  Ref<Context> context_;
  bool normalized_;
  cl_addressing_mode addressing_;
  cl_filter_mode filter_;
  std::vector<cl_sampler_properties> properties_;
};

} // namespace fibercl::runtime
