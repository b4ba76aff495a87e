// Entry points that create and describe images: clCreateImage (and its 1.x and
// with-properties forms), clGetSupportedImageFormats, clGetImageInfo.
#include "runtime/api/entry.hpp"
#include "runtime/api/mem_rules.hpp"
#include "runtime/context.hpp"
#include "runtime/image_format.hpp"
#include "runtime/memory.hpp"
#include "runtime/platform.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

bool isImageType(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return true;
  default:
    return false;
  }
}

cl_mem createImage(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags,
                   const cl_image_format *format, const cl_image_desc *desc, void *hostPtr) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context &ctx = obj<Context>(context, "context");
  std::vector<cl_mem_properties> props;
  if (properties) {
    // CL_INVALID_PROPERTY: OpenCL 3.0 defines no image properties.
    check(properties[0] != 0, CL_INVALID_PROPERTY, "unsupported image property");
    props.push_back(0);
  }
  checkMemFlags(flags, CL_MEM_KERNEL_READ_AND_WRITE);
  // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not
  // valid or if image_format is NULL.
  check(!format, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
  size_t pixel = pixelSize(*format);
  check(pixel == 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        "image_format is not a valid channel order and data type pair");
  // CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or
  // if image_desc is NULL.
  check(!desc, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  check(!isImageType(desc->image_type), CL_INVALID_IMAGE_DESCRIPTOR,
        "image_desc->image_type is not an image type");
  check(desc->num_mip_levels != 0 || desc->num_samples != 0, CL_INVALID_IMAGE_DESCRIPTOR,
        "num_mip_levels and num_samples must be 0");
  // CL_IMAGE_FORMAT_NOT_SUPPORTED if the image_format is not supported.
  check(!isSupportedImageFormat(*format, desc->image_type), CL_IMAGE_FORMAT_NOT_SUPPORTED,
        "the image format is not supported for this image type");

  const DeviceLimits &lim = ctx.device().limits();
  ImageLayout l;
  l.type = desc->image_type;
  l.format = *format;
  l.pixelSize = pixel;
  l.width = desc->image_width;
  bool is1D = l.type == CL_MEM_OBJECT_IMAGE1D || l.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
              l.type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  bool is3D = l.type == CL_MEM_OBJECT_IMAGE3D;
  if (!is1D)
    l.height = desc->image_height;
  if (is3D)
    l.depth = desc->image_depth;
  if (l.isArray())
    l.arraySize = desc->image_array_size;
  // CL_INVALID_IMAGE_SIZE if image dimensions are 0 or exceed the device's limits.
  size_t maxSide = is3D                                     ? lim.image3dMaxSize
                   : l.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? lim.imageMaxBufferSize
                                                            : lim.image2dMaxSize;
  check(l.width == 0 || l.height == 0 || l.depth == 0 || (l.isArray() && l.arraySize == 0),
        CL_INVALID_IMAGE_SIZE, "an image dimension is 0");
  check(l.width > maxSide || l.height > maxSide || l.depth > maxSide ||
            l.arraySize > lim.imageMaxArraySize,
        CL_INVALID_IMAGE_SIZE, "an image dimension exceeds the device's maximum");

  Mem *buffer = desc->buffer ? Mem::fromHandle(desc->buffer) : nullptr;
  bool fromBuffer =
      l.type == CL_MEM_OBJECT_IMAGE1D_BUFFER || (l.type == CL_MEM_OBJECT_IMAGE2D && desc->buffer);
  if (fromBuffer) {
    check(!buffer || !buffer->isBuffer(), CL_INVALID_IMAGE_DESCRIPTOR,
          "image_desc->buffer is not a valid buffer object");
    check(&buffer->context() != &ctx, CL_INVALID_IMAGE_DESCRIPTOR,
          "image_desc->buffer belongs to another context");
    // CL_INVALID_HOST_PTR: an image from a buffer takes no host pointer.
    check(hostPtr, CL_INVALID_HOST_PTR, "host_ptr is given for an image from a buffer");
    flags = inheritFlags(flags, *buffer);
  } else {
    check(desc->buffer, CL_INVALID_IMAGE_DESCRIPTOR,
          "image_desc->buffer is only for 1D image buffers and 2D images");
    bool wantsPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags, or if host_ptr is not NULL but neither is.
    check(!hostPtr && wantsPtr, CL_INVALID_HOST_PTR,
          "host_ptr is NULL with USE_HOST_PTR or COPY_HOST_PTR");
    check(hostPtr && !wantsPtr, CL_INVALID_HOST_PTR,
          "host_ptr is given without USE_HOST_PTR or COPY_HOST_PTR");
  }

  // Pitches: the application's (given with a host pointer or a buffer), or packed.
  size_t rowPitch = desc->image_row_pitch, slicePitch = desc->image_slice_pitch;
  check(!hostPtr && !fromBuffer && (rowPitch || slicePitch), CL_INVALID_IMAGE_DESCRIPTOR,
        "image_row_pitch and image_slice_pitch must be 0 without host_ptr");
  size_t packedRow = l.width * pixel;
  if (rowPitch == 0)
    rowPitch = packedRow;
  check(rowPitch < packedRow || rowPitch % pixel != 0, CL_INVALID_IMAGE_DESCRIPTOR,
        "image_row_pitch is smaller than a row or not a multiple of the pixel size");
  size_t packedSlice = l.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rowPitch : rowPitch * l.height;
  bool hasSlices = is3D || l.isArray();
  if (slicePitch == 0 || !hasSlices)
    slicePitch = hasSlices ? packedSlice : 0;
  check(hasSlices && (slicePitch < packedSlice || slicePitch % rowPitch != 0),
        CL_INVALID_IMAGE_DESCRIPTOR,
        "image_slice_pitch is smaller than a slice or not a multiple of the row pitch");
  size_t hostRow = rowPitch, hostSlice = slicePitch;
  if (hostPtr && !(flags & CL_MEM_USE_HOST_PTR)) {
    // A copy is stored packed.
    rowPitch = packedRow;
    slicePitch =
        hasSlices ? (l.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? packedRow : packedRow * l.height) : 0;
  }
  l.rowPitch = rowPitch;
  l.slicePitch = slicePitch;
  if (fromBuffer)
    check(l.bytes() > buffer->size(), CL_INVALID_IMAGE_SIZE,
          "the image does not fit in image_desc->buffer");
  check(l.bytes() > ctx.device().maxAllocSize(), CL_INVALID_IMAGE_SIZE,
        "the image exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  return give(make<Mem>(ctx, flags, l, hostPtr, hostRow, hostSlice, fromBuffer ? buffer : nullptr,
                        std::move(props)));
}

} // namespace

extern "C" {

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format *image_format,
                                 const cl_image_desc *image_desc, void *host_ptr,
                                 cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    return createImage(context, nullptr, flags, image_format, image_desc, host_ptr);
  });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties *properties,
                                               cl_mem_flags flags,
                                               const cl_image_format *image_format,
                                               const cl_image_desc *image_desc, void *host_ptr,
                                               cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    return createImage(context, properties, flags, image_format, image_desc, host_ptr);
  });
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_row_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    desc.image_row_pitch = image_row_pitch;
    return createImage(context, nullptr, flags, image_format, &desc, host_ptr);
  });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format *image_format, size_t image_width,
                                   size_t image_height, size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void *host_ptr, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    desc.image_depth = image_depth;
    desc.image_row_pitch = image_row_pitch;
    desc.image_slice_pitch = image_slice_pitch;
    return createImage(context, nullptr, flags, image_format, &desc, host_ptr);
  });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format *image_formats,
                                              cl_uint *num_image_formats) {
  return call(__func__, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    obj<Context>(context, "context");
    // CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0
    // and image_formats is not NULL.
    checkMemFlags(flags, CL_MEM_KERNEL_READ_AND_WRITE);
    check(!isImageType(image_type), CL_INVALID_VALUE, "image_type is not an image type");
    check(num_entries == 0 && image_formats, CL_INVALID_VALUE,
          "num_entries is 0 and image_formats is not NULL");
    // Every format serves every access (read, write, read-write, kernel read-and-write).
    auto formats = supportedImageFormats(image_type);
    for (size_t i = 0; image_formats && i < formats.size() && i < num_entries; ++i)
      image_formats[i] = formats[i];
    if (num_image_formats)
      *num_image_formats = static_cast<cl_uint>(formats.size());
  });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_MEM_OBJECT if image is a not a valid image object.
    Mem &m = obj<Mem>(image, "image");
    const ImageLayout *l = m.image();
    check(!l, CL_INVALID_MEM_OBJECT, "image is a buffer, not an image");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    bool is1D = l->type == CL_MEM_OBJECT_IMAGE1D || l->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                l->type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    switch (param_name) {
    case CL_IMAGE_FORMAT:
      return out.scalar<cl_image_format>(l->format);
    case CL_IMAGE_ELEMENT_SIZE:
      return out.scalar<size_t>(l->pixelSize);
    case CL_IMAGE_ROW_PITCH:
      return out.scalar<size_t>(l->rowPitch);
    case CL_IMAGE_SLICE_PITCH:
      return out.scalar<size_t>(l->slicePitch);
    case CL_IMAGE_WIDTH:
      return out.scalar<size_t>(l->width);
    case CL_IMAGE_HEIGHT: // 0 for 1D images
      return out.scalar<size_t>(is1D ? 0 : l->height);
    case CL_IMAGE_DEPTH: // 0 unless 3D
      return out.scalar<size_t>(l->type == CL_MEM_OBJECT_IMAGE3D ? l->depth : 0);
    case CL_IMAGE_ARRAY_SIZE:
      return out.scalar<size_t>(l->arraySize);
    case CL_IMAGE_BUFFER:
      return out.scalar<cl_mem>(m.parent() ? m.parent()->handle() : nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES:
      return out.scalar<cl_uint>(0);
    default:
      badParam();
    }
  });
}

} // extern "C"
