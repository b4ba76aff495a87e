// The image formats the CPU device supports, and what a format implies (pixel size,
// channels). One table: clGetSupportedImageFormats, clCreateImage and the pixel
// encoder all read it.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <vector>

namespace fibercl::runtime {

// Every supported format for images of `type` (depth formats only for 2D images and
// 2D image arrays).
std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type type);
bool isSupportedImageFormat(const cl_image_format &format, cl_mem_object_type type);

// Bytes per pixel; 0 if the order/type pair is not a valid format description
// (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR).
size_t pixelSize(const cl_image_format &format);

// Channels stored per pixel (CL_sRGBx counts its padding channel, CL_Rx and CL_RGx
// store none: the CTS's sizes).
unsigned channelCount(cl_channel_order order);

// Encodes `color` (cl_float4 for normalised, half and float formats; cl_int4 or
// cl_uint4 for integer formats, as clEnqueueFillImage takes it) as one pixel of
// `format`, converting and saturating as kernels' write_image* do.
void encodePixel(const cl_image_format &format, const void *color, unsigned char *pixel);

} // namespace fibercl::runtime
