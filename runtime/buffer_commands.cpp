// The buffer commands (buffer_commands.hpp).
#include "runtime/buffer_commands.hpp"

#include <cstring>

#include "runtime/host_command.hpp"

namespace fibercl::runtime {

std::unique_ptr<Command> copyBytesCommand(Ref<Mem> a, Ref<Mem> b, void *to, const void *from,
                                          size_t size) {
  return hostCommand([a = std::move(a), b = std::move(b), to, from, size]() -> cl_int {
    std::memcpy(to, from, size);
    return CL_COMPLETE;
  });
}

std::unique_ptr<Command> copyRectCommand(Ref<Mem> a, Ref<Mem> b, char *to, Pitches tp,
                                         const char *from, Pitches fp,
                                         std::array<size_t, 3> region) {
  return hostCommand([a = std::move(a), b = std::move(b), to, tp, from, fp, region]() -> cl_int {
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y)
        std::memmove(to + z * tp.slice + y * tp.row, from + z * fp.slice + y * fp.row, region[0]);
    return CL_COMPLETE;
  });
}

std::unique_ptr<Command> fillCommand(Ref<Mem> m, char *to, size_t size, const void *pattern,
                                     size_t patternSize) {
  std::array<unsigned char, 128> pat;
  std::memcpy(pat.data(), pattern, patternSize);
  return hostCommand([m = std::move(m), to, size, pat, patternSize]() -> cl_int {
    if (patternSize == 1) {
      std::memset(to, pat[0], size);
      return CL_COMPLETE;
    }
    for (size_t i = 0; i < size; i += patternSize)
      std::memcpy(to + i, pat.data(), patternSize);
    return CL_COMPLETE;
  });
}

std::unique_ptr<Command> fillRectCommand(Ref<Mem> m, char *to, Pitches p, const void *pattern,
                                         size_t patternSize, std::array<size_t, 3> region) {
  std::array<unsigned char, 16> pat;
  std::memcpy(pat.data(), pattern, patternSize);
  return hostCommand([m = std::move(m), to, p, pat, patternSize, region]() -> cl_int {
    for (size_t z = 0; z < region[2]; ++z)
      for (size_t y = 0; y < region[1]; ++y) {
        char *row = to + z * p.slice + y * p.row;
        for (size_t x = 0; x < region[0]; x += patternSize)
          std::memcpy(row + x, pat.data(), patternSize);
      }
    return CL_COMPLETE;
  });
}

} // namespace fibercl::runtime
