/* Images and samplers as kernels see them: the contract between the runtime (which
 * creates images and samplers and passes them to kernels) and the builtins library
 * (which reads and writes pixels). Included by C++ and by OpenCL C, like kernel_abi.h.
 *
 * An image argument holds the device address of its fcl_image descriptor (8 bytes,
 * like a buffer's address). Clang types it `ptr addrspace(1)`; the builtins library
 * turns it into `const __global fcl_image *` with __fcl_image_desc.
 *
 * A sampler argument or a sampler declared in the program holds the sampler's bits
 * (the CLK_* encoding below, which is Clang's) as the value of its 8-byte "pointer"
 * (`ptr addrspace(2)`): `__translate_sampler_initializer(bits)` returns the bits
 * unchanged, `__fcl_sampler_bits` reads them back. There is no sampler object in
 * device memory.
 */
#ifndef FIBERCL_IMAGE_ABI_H
#define FIBERCL_IMAGE_ABI_H

#include "fibercl/kernel_abi.h"

/* The bytes of pixel (x, y, z) are at
 *     data + x * pixel_size + y * row_pitch + z * slice_pitch
 * where for a 1D image array y is the layer (row_pitch is then the layer pitch) and
 * for a 2D image array z is the layer. Unused dimensions are 1 (height of a 1D image,
 * depth of a 2D image); array_size is the number of layers of an array, else 0. */
typedef struct fcl_image {
  fcl_u64 data;
  fcl_u64 row_pitch;
  fcl_u64 slice_pitch;
  fcl_u32 width;
  fcl_u32 height;
  fcl_u32 depth;
  fcl_u32 array_size;
  fcl_u32 channel_order;     /* CL_R, CL_RGBA, ... (the CLK_* values are the same) */
  fcl_u32 channel_data_type; /* CL_UNORM_INT8, CL_FLOAT, ... */
  fcl_u32 pixel_size;        /* bytes per pixel */
  fcl_u32 image_type;        /* CL_MEM_OBJECT_IMAGE1D, ... */
} fcl_image;

/* image_type values kernels test (the CL_MEM_OBJECT_* numbers). */
#define FCL_IMAGE_TYPE_2D_ARRAY 0x10F3u
#define FCL_IMAGE_TYPE_1D_ARRAY 0x10F5u

/* Sampler bits (Clang's encoding of sampler initialisers; opencl-c-base.h's CLK_*). */
#define FCL_SAMPLER_NORMALIZED_COORDS 0x1u
#define FCL_SAMPLER_ADDRESS_MASK                                                                   \
  0xEu                                /* CLK_ADDRESS_NONE 0, CLAMP_TO_EDGE 2, CLAMP 4,             \
                                         REPEAT 6, MIRRORED_REPEAT 8 */
#define FCL_SAMPLER_FILTER_MASK 0x30u /* CLK_FILTER_NEAREST 0x10, CLK_FILTER_LINEAR 0x20 */

#endif
