// libFuzzer target: clCreateProgramWithBinary's decoder (compiler/src/binary_format.cpp)
// on arbitrary bytes. It must never crash or read out of bounds (ASan), and whatever it
// accepts must survive a round trip: encoded again, it decodes to the same thing.
#include <cstdint>
#include <cstdlib>

#include "binary_format.hpp"

using namespace fibercl::compiler;

namespace {

bool sameKernels(const std::vector<KernelInfo> &a, const std::vector<KernelInfo> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].args.size() != b[i].args.size())
      return false;
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  DecodedBinary first;
  if (!decodeBinary(data, size, first))
    return 0;
  Binary again = encodeBinary(first.kind, first.kernels, first.bitcode, first.target, first.object);
  DecodedBinary second;
  if (!decodeBinary(again.bytes.data(), again.bytes.size(), second) || second.kind != first.kind ||
      second.bitcode != first.bitcode || second.target != first.target ||
      second.object != first.object || !sameKernels(first.kernels, second.kernels))
    std::abort(); // accepted, but does not survive a round trip
  return 0;
}
