/* The image and sampler handles of the image builtins (image_builtins.cl): Clang gives
 * every image type the IR type `ptr addrspace(1)` and sampler_t `ptr addrspace(2)`,
 * which OpenCL C does not let a builtin cast. image_builtins.cl declares typed
 * functions under these names (asm labels); here they are defined on the pointer
 * types the IR has (fibercl/image_abi.h). */
#include "fcl_internal.h"
#include "fibercl/image_abi.h"

const __global fcl_image *__fcl_image_desc(const __global fcl_image *image) { return image; }

uint __fcl_sampler_bits(__constant char *sampler) { return (uint)(ulong)sampler; }

/* What Clang calls for a sampler the program declares (`const sampler_t s = ...`):
 * the sampler is its bits. */
__constant char *__translate_sampler_initializer(uint bits) {
  return (__constant char *)(ulong)bits;
}
