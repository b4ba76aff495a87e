// Images and samplers through the API: formats, creation rules, host transfers
// (read, write, copy, fill, map, with buffers), and kernels reading, sampling and
// writing them. Expected values are computed here from the specification's rules
// (conversion, addressing, filtering), independently of the implementation.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class Images : public CLTest {
protected:
  void SetUp() override {
    CLTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!deviceInfo<cl_bool>(device_, CL_DEVICE_IMAGE_SUPPORT))
      GTEST_SKIP() << "the device reports no image support";
  }

  cl_mem image(const cl_image_format &format, const cl_image_desc &desc,
               cl_mem_flags flags = CL_MEM_READ_WRITE, void *host = nullptr) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(context_, flags, &format, &desc, host, &err);
    check(err, "clCreateImage");
    atTearDown([m] { clReleaseMemObject(m); });
    return m;
  }
  cl_sampler sampler(cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter) {
    cl_int err = CL_SUCCESS;
    cl_sampler s = clCreateSampler(context_, normalized, addressing, filter, &err);
    check(err, "clCreateSampler");
    atTearDown([s] { clReleaseSampler(s); });
    return s;
  }
};

cl_image_desc desc2d(size_t w, size_t h) {
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  return d;
}

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<unsigned char>((i * 37 + seed * 101 + (i >> 7)) & 0xFF);
  return v;
}

bool hasFormat(const std::vector<cl_image_format> &list, cl_channel_order o, cl_channel_type t) {
  return std::any_of(list.begin(), list.end(), [&](const cl_image_format &f) {
    return f.image_channel_order == o && f.image_channel_data_type == t;
  });
}

TEST_F(Images, DeviceReportsTheFormatsTheSpecificationRequires) {
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 2048u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_SAMPLERS), 16u);
  for (cl_mem_object_type type :
       {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
    SCOPED_TRACE("image type " + std::to_string(type));
    cl_uint n = 0;
    ASSERT_CL(clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, type, 0, nullptr, &n));
    std::vector<cl_image_format> list(n);
    ASSERT_CL(
        clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, type, n, list.data(), nullptr));
    // The full-profile minimum (OpenCL 3.0, read-write images).
    for (cl_channel_order o : {CL_R, CL_RG, CL_RGBA})
      for (cl_channel_type t : {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16,
                                CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,
                                CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT})
        EXPECT_TRUE(hasFormat(list, o, t)) << std::hex << o << " " << t;
    EXPECT_TRUE(hasFormat(list, CL_BGRA, CL_UNORM_INT8));
    // Depth formats are for 2D images and 2D arrays only.
    bool depthType = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    EXPECT_EQ(hasFormat(list, CL_DEPTH, CL_FLOAT), depthType);
  }
}

TEST_F(Images, CreationRulesAndQueries) {
  cl_int err = CL_SUCCESS;
  cl_image_format rgba8{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = desc2d(33, 17);
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, nullptr, &d, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
  cl_image_format bad{CL_RGB, CL_UNORM_INT8}; // RGB is only for packed types
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &bad, &d, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, err);
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &rgba8, nullptr, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
  cl_image_desc zero = desc2d(0, 4);
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &rgba8, &zero, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_SIZE, err);
  size_t maxW = deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH);
  cl_image_desc wide = desc2d(maxW + 1, 1);
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &rgba8, &wide, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_SIZE, err);
  cl_image_desc pitched = desc2d(33, 17);
  pitched.image_row_pitch = 33 * 4 + 12; // a pitch needs a host pointer
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &rgba8, &pitched, nullptr, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);
  std::vector<unsigned char> host(pitched.image_row_pitch * 17);
  pitched.image_row_pitch = 33 * 4 - 4; // shorter than a row
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &rgba8, &pitched,
                          host.data(), &err),
            nullptr);
  EXPECT_CL_ERR(CL_INVALID_IMAGE_DESCRIPTOR, err);

  cl_mem img = image(rgba8, d);
  size_t v = 0;
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof v, &v, nullptr));
  EXPECT_EQ(v, 33u);
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof v, &v, nullptr));
  EXPECT_EQ(v, 17u);
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof v, &v, nullptr));
  EXPECT_EQ(v, 0u);
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, nullptr));
  EXPECT_EQ(v, 4u);
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof v, &v, nullptr));
  EXPECT_GE(v, 33u * 4);
  cl_image_format f{};
  ASSERT_CL(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
  EXPECT_EQ(f.image_channel_order, static_cast<cl_channel_order>(CL_RGBA));
  EXPECT_EQ(f.image_channel_data_type, static_cast<cl_channel_type>(CL_UNORM_INT8));
  cl_mem_object_type t = 0;
  ASSERT_CL(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof t, &t, nullptr));
  EXPECT_EQ(t, static_cast<cl_mem_object_type>(CL_MEM_OBJECT_IMAGE2D));

  // Images are not buffers, and buffers not images.
  unsigned char byte = 0;
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT,
                clEnqueueReadBuffer(queue_, img, CL_TRUE, 0, 1, &byte, 0, nullptr, nullptr));
  cl_mem buf = buffer(64);
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, nullptr));
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clEnqueueReadImage(queue_, buf, CL_TRUE, origin, region, 0,
                                                          0, &byte, 0, nullptr, nullptr));
  // Out-of-bounds regions.
  size_t outside[3] = {30, 0, 0}, big[3] = {4, 1, 1};
  unsigned char px[16];
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue_, img, CL_TRUE, outside, big, 0, 0, px,
                                                     0, nullptr, nullptr));
  size_t deep[3] = {1, 1, 2}; // a 2D image has depth 1
  EXPECT_CL_ERR(CL_INVALID_VALUE, clEnqueueReadImage(queue_, img, CL_TRUE, origin, deep, 0, 0, px,
                                                     0, nullptr, nullptr));
}

// Every shape: write with a host pitch, read back packed, copy through a buffer and
// into a second image, map.
TEST_F(Images, HostTransfersOfEveryImageType) {
  struct Shape {
    cl_mem_object_type type;
    size_t w, h, d, layers;
  };
  const Shape shapes[] = {{CL_MEM_OBJECT_IMAGE1D, 37, 0, 0, 0},
                          {CL_MEM_OBJECT_IMAGE1D_ARRAY, 37, 0, 0, 5},
                          {CL_MEM_OBJECT_IMAGE2D, 37, 11, 0, 0},
                          {CL_MEM_OBJECT_IMAGE2D_ARRAY, 37, 11, 0, 3},
                          {CL_MEM_OBJECT_IMAGE3D, 37, 11, 4, 0}};
  cl_image_format fmt{CL_RG, CL_UNSIGNED_INT16}; // 4-byte pixels
  const size_t px = 4;
  for (const Shape &s : shapes) {
    SCOPED_TRACE("image type " + std::to_string(s.type));
    cl_image_desc d{};
    d.image_type = s.type;
    d.image_width = s.w;
    d.image_height = s.h;
    d.image_depth = s.d;
    d.image_array_size = s.layers;
    cl_mem a = image(fmt, d), b = image(fmt, d);
    // Extents in API terms: a 1D array's layers are region[1], a 2D array's region[2].
    size_t ext[3] = {s.w,
                     s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? s.layers : std::max<size_t>(s.h, 1),
                     s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? s.layers : std::max<size_t>(s.d, 1)};
    size_t origin[3] = {0, 0, 0};
    // Host layout with padding: rows of (w*px + 8), slices of rows*(ext[1]) + 16.
    size_t rowPitch = s.w * px + 8;
    size_t slicePitch =
        s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? rowPitch + 16 : rowPitch * ext[1] + 16;
    size_t hostRow = s.type == CL_MEM_OBJECT_IMAGE1D || s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                         ? 0
                         : rowPitch; // 1D rows have no pitch; 1D arrays use slices
    std::vector<unsigned char> host = pattern(slicePitch * ext[2] + rowPitch * ext[1], 3);
    bool hasSlices = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                     s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY || s.type == CL_MEM_OBJECT_IMAGE3D;
    ASSERT_CL(clEnqueueWriteImage(queue_, a, CL_TRUE, origin, ext, hostRow,
                                  hasSlices ? slicePitch : 0, host.data(), 0, nullptr, nullptr));
    // The packed form the host wrote, pixel by pixel.
    std::vector<unsigned char> packed(ext[0] * ext[1] * ext[2] * px);
    for (size_t z = 0; z < ext[2]; ++z)
      for (size_t y = 0; y < ext[1]; ++y) {
        size_t from =
            s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? y * slicePitch : z * slicePitch + y * rowPitch;
        std::memcpy(&packed[((z * ext[1]) + y) * ext[0] * px], &host[from], ext[0] * px);
      }
    std::vector<unsigned char> back(packed.size());
    ASSERT_CL(clEnqueueReadImage(queue_, a, CL_TRUE, origin, ext, 0, 0, back.data(), 0, nullptr,
                                 nullptr));
    EXPECT_EQ(back, packed);

    // Image -> buffer -> image, then image -> image.
    cl_mem buf = buffer(packed.size() + 64);
    ASSERT_CL(clEnqueueCopyImageToBuffer(queue_, a, buf, origin, ext, 64, 0, nullptr, nullptr));
    EXPECT_EQ(read<unsigned char>(buf, packed.size(), 64), packed);
    ASSERT_CL(clEnqueueCopyBufferToImage(queue_, buf, b, 64, origin, ext, 0, nullptr, nullptr));
    std::fill(back.begin(), back.end(), 0);
    ASSERT_CL(clEnqueueReadImage(queue_, b, CL_TRUE, origin, ext, 0, 0, back.data(), 0, nullptr,
                                 nullptr));
    EXPECT_EQ(back, packed);

    // A sub-box copied within and between images (origin 1 in every used dimension).
    size_t src[3] = {1, ext[1] > 1 ? 1u : 0u, ext[2] > 1 ? 1u : 0u};
    size_t dst[3] = {0, 0, 0};
    size_t sub[3] = {ext[0] - 1, ext[1] > 1 ? ext[1] - 1 : 1, ext[2] > 1 ? ext[2] - 1 : 1};
    ASSERT_CL(clEnqueueCopyImage(queue_, a, b, src, dst, sub, 0, nullptr, nullptr));
    std::vector<unsigned char> got(sub[0] * sub[1] * sub[2] * px);
    ASSERT_CL(
        clEnqueueReadImage(queue_, b, CL_TRUE, dst, sub, 0, 0, got.data(), 0, nullptr, nullptr));
    for (size_t z = 0; z < sub[2]; ++z)
      for (size_t y = 0; y < sub[1]; ++y)
        ASSERT_EQ(0, std::memcmp(&got[(z * sub[1] + y) * sub[0] * px],
                                 &packed[(((z + src[2]) * ext[1] + y + src[1]) * ext[0] + 1) * px],
                                 sub[0] * px))
            << "row " << y << " slice " << z;

    // Map: the pitches it reports address the same pixels.
    size_t mRow = 0, mSlice = 0;
    cl_int err = CL_SUCCESS;
    auto *p = static_cast<unsigned char *>(clEnqueueMapImage(
        queue_, a, CL_TRUE, CL_MAP_READ, origin, ext, &mRow, &mSlice, 0, nullptr, nullptr, &err));
    ASSERT_CL(err);
    size_t yStride = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? mSlice : mRow;
    for (size_t z = 0; z < ext[2]; ++z)
      for (size_t y = 0; y < ext[1]; ++y)
        ASSERT_EQ(0, std::memcmp(p + z * mSlice + y * yStride,
                                 &packed[(z * ext[1] + y) * ext[0] * px], ext[0] * px));
    ASSERT_CL(clEnqueueUnmapMemObject(queue_, a, p, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queue_));
  }
}

uint8_t unorm8(float f) {
  if (std::isnan(f))
    return 0;
  return static_cast<uint8_t>(std::nearbyint(std::clamp(f * 255.0f, 0.0f, 255.0f)));
}

TEST_F(Images, FillConvertsTheColourToTheFormat) {
  cl_image_format bgra{CL_BGRA, CL_UNORM_INT8};
  cl_mem img = image(bgra, desc2d(9, 5));
  cl_float4 colour = {{0.25f, 0.5f, 1.5f, -1.0f}}; // saturates b and a
  size_t origin[3] = {2, 1, 0}, region[3] = {3, 2, 1};
  size_t all[3] = {9, 5, 1}, o0[3] = {0, 0, 0};
  cl_float4 black = {{0, 0, 0, 0}};
  ASSERT_CL(clEnqueueFillImage(queue_, img, &black, o0, all, 0, nullptr, nullptr));
  ASSERT_CL(clEnqueueFillImage(queue_, img, &colour, origin, region, 0, nullptr, nullptr));
  std::vector<uint8_t> px(9 * 5 * 4);
  ASSERT_CL(
      clEnqueueReadImage(queue_, img, CL_TRUE, o0, all, 0, 0, px.data(), 0, nullptr, nullptr));
  for (size_t y = 0; y < 5; ++y)
    for (size_t x = 0; x < 9; ++x) {
      bool inside = x >= 2 && x < 5 && y >= 1 && y < 3;
      const uint8_t *p = &px[(y * 9 + x) * 4];
      uint8_t want[4] = {0, 0, 0, 0};
      if (inside) { // stored B, G, R, A
        want[0] = unorm8(1.5f);
        want[1] = unorm8(0.5f);
        want[2] = unorm8(0.25f);
        want[3] = unorm8(-1.0f);
      }
      ASSERT_EQ(0, std::memcmp(p, want, 4)) << "pixel " << x << "," << y;
    }
  // Integer formats take cl_int4 / cl_uint4 and saturate.
  cl_image_format s16{CL_RG, CL_SIGNED_INT16};
  cl_mem si = image(s16, desc2d(2, 2));
  cl_int4 ic = {{-70000, 1234, 7, 7}};
  size_t r2[3] = {2, 2, 1};
  ASSERT_CL(clEnqueueFillImage(queue_, si, &ic, o0, r2, 0, nullptr, nullptr));
  std::vector<int16_t> sv(8);
  ASSERT_CL(clEnqueueReadImage(queue_, si, CL_TRUE, o0, r2, 0, 0, sv.data(), 0, nullptr, nullptr));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(sv[2 * i], -32768);
    EXPECT_EQ(sv[2 * i + 1], 1234);
  }
}

// A kernel copying every pixel with read_image{f,i,ui} and write_image{f,i,ui} gives
// back the same bytes for every format whose values survive the round trip.
TEST_F(Images, KernelCopiesPixelsOfEveryFormatExactly) {
  const char *src = R"CL(
#ifndef __IMAGE_SUPPORT__
#error "__IMAGE_SUPPORT__ is not defined"
#endif
kernel void copy_f(read_only image2d_t a, write_only image2d_t b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(b, p, read_imagef(a, p));
}
kernel void copy_i(read_only image2d_t a, write_only image2d_t b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagei(b, p, read_imagei(a, p));
}
kernel void copy_ui(read_only image2d_t a, write_only image2d_t b) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(b, p, read_imageui(a, p));
}
)CL";
  cl_program prog = build(src);
  struct Case {
    cl_channel_order order;
    cl_channel_type type;
    const char *kernel;
  };
  const Case cases[] = {
      {CL_RGBA, CL_UNORM_INT8, "copy_f"},      {CL_BGRA, CL_UNORM_INT8, "copy_f"},
      {CL_ARGB, CL_UNORM_INT8, "copy_f"},      {CL_R, CL_UNORM_INT16, "copy_f"},
      {CL_RG, CL_SNORM_INT8, "copy_f"},        {CL_RGBA, CL_SNORM_INT16, "copy_f"},
      {CL_RGBA, CL_FLOAT, "copy_f"},           {CL_RG, CL_HALF_FLOAT, "copy_f"},
      {CL_A, CL_UNORM_INT8, "copy_f"},         {CL_RA, CL_FLOAT, "copy_f"},
      {CL_LUMINANCE, CL_UNORM_INT8, "copy_f"}, {CL_INTENSITY, CL_FLOAT, "copy_f"},
      {CL_RGB, CL_UNORM_SHORT_565, "copy_f"},  {CL_RGB, CL_UNORM_SHORT_555, "copy_f"},
      {CL_RGB, CL_UNORM_INT_101010, "copy_f"}, {CL_RGBA, CL_SIGNED_INT8, "copy_i"},
      {CL_RG, CL_SIGNED_INT16, "copy_i"},      {CL_R, CL_SIGNED_INT32, "copy_i"},
      {CL_RGBA, CL_UNSIGNED_INT8, "copy_ui"},  {CL_RA, CL_UNSIGNED_INT16, "copy_ui"},
      {CL_RGBA, CL_UNSIGNED_INT32, "copy_ui"}};
  const size_t w = 19, h = 7;
  for (const Case &c : cases) {
    cl_image_format fmt{c.order, c.type};
    SCOPED_TRACE(std::string("format ") + std::to_string(c.order) + "/" + std::to_string(c.type));
    cl_mem a = image(fmt, desc2d(w, h), CL_MEM_READ_ONLY);
    cl_mem b = image(fmt, desc2d(w, h), CL_MEM_WRITE_ONLY);
    size_t px = 0;
    ASSERT_CL(clGetImageInfo(a, CL_IMAGE_ELEMENT_SIZE, sizeof px, &px, nullptr));
    std::vector<unsigned char> bytes = pattern(w * h * px, static_cast<unsigned>(c.type));
    // Keep values that do not survive a round trip out: snorm's -128 reads as -1.0
    // (written back as -127), NaNs and denormal halves, the unused top bits of packed
    // formats.
    for (size_t i = 0; i < bytes.size(); ++i) {
      if (c.type == CL_SNORM_INT8 && bytes[i] == 0x80)
        bytes[i] = 0x81;
      if (c.type == CL_SNORM_INT16 && (i & 1) && bytes[i] == 0x80)
        bytes[i] = 0x81;
      if (c.type == CL_FLOAT && (i & 3) == 3)
        bytes[i] = static_cast<unsigned char>(0x3f + (bytes[i] & 0x80));
      if (c.type == CL_HALF_FLOAT && (i & 1))
        bytes[i] = static_cast<unsigned char>(0x3c | (bytes[i] & 0x83));
      if (c.type == CL_UNORM_SHORT_555 && (i & 1))
        bytes[i] &= 0x7f;
      if (c.type == CL_UNORM_INT_101010 && (i & 3) == 3)
        bytes[i] &= 0x3f;
    }
    size_t o[3] = {0, 0, 0}, r[3] = {w, h, 1};
    ASSERT_CL(
        clEnqueueWriteImage(queue_, a, CL_TRUE, o, r, 0, 0, bytes.data(), 0, nullptr, nullptr));
    cl_kernel k = kernel(prog, c.kernel);
    setArgs(k, a, b);
    run(k, {w, h});
    std::vector<unsigned char> got(bytes.size());
    ASSERT_CL(clEnqueueReadImage(queue_, b, CL_TRUE, o, r, 0, 0, got.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i], bytes[i]) << "byte " << i << " (pixel " << i / px << ")";
  }
}

// What read_imagef/ui return for each channel order and type, against the
// specification's conversion rules.
TEST_F(Images, ReadsConvertAndOrderChannels) {
  const char *src = R"CL(
kernel void decode_f(read_only image2d_t a, global float4* out) {
  int x = get_global_id(0);
  out[x] = read_imagef(a, (int2)(x, 0));
}
kernel void decode_ui(read_only image2d_t a, global uint4* out) {
  int x = get_global_id(0);
  out[x] = read_imageui(a, (int2)(x, 0));
}
)CL";
  cl_program prog = build(src);
  auto decode = [&](cl_channel_order o, cl_channel_type t, const std::vector<unsigned char> &bytes,
                    size_t n, const char *name) {
    cl_image_format fmt{o, t};
    std::vector<unsigned char> copy = bytes;
    cl_image_desc d = desc2d(n, 1);
    cl_mem img = image(fmt, d, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, copy.data());
    cl_mem out = buffer(n * 16);
    cl_kernel k = kernel(prog, name);
    setArgs(k, img, out);
    run(k, {n});
    return out;
  };
  { // BGRA unorm8: stored b, g, r, a.
    std::vector<unsigned char> b = {10, 20, 30, 255, 0, 128, 255, 1};
    auto v = read<cl_float4>(decode(CL_BGRA, CL_UNORM_INT8, b, 2, "decode_f"), 2);
    for (int p = 0; p < 2; ++p) {
      EXPECT_FLOAT_EQ(v[p].s[0], b[4 * p + 2] / 255.0f);
      EXPECT_FLOAT_EQ(v[p].s[1], b[4 * p + 1] / 255.0f);
      EXPECT_FLOAT_EQ(v[p].s[2], b[4 * p + 0] / 255.0f);
      EXPECT_FLOAT_EQ(v[p].s[3], b[4 * p + 3] / 255.0f);
    }
  }
  { // R snorm8: missing g, b read 0 and a reads 1; -128 reads as -1.
    std::vector<unsigned char> b = {0x80, 0x7f, 0xc0};
    auto v = read<cl_float4>(decode(CL_R, CL_SNORM_INT8, b, 3, "decode_f"), 3);
    float want[3] = {-1.0f, 1.0f, -64.0f / 127.0f};
    for (int p = 0; p < 3; ++p) {
      EXPECT_FLOAT_EQ(v[p].s[0], want[p]);
      EXPECT_EQ(v[p].s[1], 0.0f);
      EXPECT_EQ(v[p].s[2], 0.0f);
      EXPECT_EQ(v[p].s[3], 1.0f);
    }
  }
  { // A unorm8 is (0, 0, 0, a); LUMINANCE (L, L, L, 1); INTENSITY (I, I, I, I).
    std::vector<unsigned char> b = {51};
    auto a = read<cl_float4>(decode(CL_A, CL_UNORM_INT8, b, 1, "decode_f"), 1)[0];
    EXPECT_EQ(a.s[0], 0.0f);
    EXPECT_FLOAT_EQ(a.s[3], 0.2f);
    auto l = read<cl_float4>(decode(CL_LUMINANCE, CL_UNORM_INT8, b, 1, "decode_f"), 1)[0];
    EXPECT_FLOAT_EQ(l.s[0], 0.2f);
    EXPECT_FLOAT_EQ(l.s[2], 0.2f);
    EXPECT_EQ(l.s[3], 1.0f);
    auto i = read<cl_float4>(decode(CL_INTENSITY, CL_UNORM_INT8, b, 1, "decode_f"), 1)[0];
    EXPECT_FLOAT_EQ(i.s[1], 0.2f);
    EXPECT_FLOAT_EQ(i.s[3], 0.2f);
  }
  { // 565: r in the top 5 bits.
    uint16_t px = static_cast<uint16_t>(17 << 11 | 40 << 5 | 3);
    std::vector<unsigned char> b(2);
    std::memcpy(b.data(), &px, 2);
    auto v = read<cl_float4>(decode(CL_RGB, CL_UNORM_SHORT_565, b, 1, "decode_f"), 1)[0];
    EXPECT_FLOAT_EQ(v.s[0], 17 / 31.0f);
    EXPECT_FLOAT_EQ(v.s[1], 40 / 63.0f);
    EXPECT_FLOAT_EQ(v.s[2], 3 / 31.0f);
    EXPECT_EQ(v.s[3], 1.0f);
  }
  { // RA uint16 through read_imageui: (r, 0, 0, a).
    uint16_t px[2] = {65535, 77};
    std::vector<unsigned char> b(4);
    std::memcpy(b.data(), px, 4);
    auto v = read<cl_uint4>(decode(CL_RA, CL_UNSIGNED_INT16, b, 1, "decode_ui"), 1)[0];
    EXPECT_EQ(v.s[0], 65535u);
    EXPECT_EQ(v.s[1], 0u);
    EXPECT_EQ(v.s[2], 0u);
    EXPECT_EQ(v.s[3], 77u);
  }
  { // Half: 1.5 and -2.
    uint16_t px[2] = {0x3e00, 0xc000};
    std::vector<unsigned char> b(4);
    std::memcpy(b.data(), px, 4);
    auto v = read<cl_float4>(decode(CL_RG, CL_HALF_FLOAT, b, 1, "decode_f"), 1)[0];
    EXPECT_EQ(v.s[0], 1.5f);
    EXPECT_EQ(v.s[1], -2.0f);
    EXPECT_EQ(v.s[3], 1.0f);
  }
}

// The specification's addressing and filtering rules for one coordinate axis.
struct Axis {
  int i0, i1; // texel indices; -1 or n mean "border"
  float a;    // weight of i1 (linear)
};
float fracf(float x) { return x - std::floor(x); }
Axis address(float s, int n, bool normalized, cl_addressing_mode mode, bool linear) {
  float u = normalized ? s * n : s;
  auto clampEdge = [&](int i) { return std::clamp(i, 0, n - 1); };
  auto clampBorder = [&](int i) { return std::clamp(i, -1, n); };
  if (mode == CL_ADDRESS_REPEAT) {
    u = (s - std::floor(s)) * n;
    if (!linear) {
      int i = static_cast<int>(std::floor(u));
      if (i > n - 1)
        i -= n;
      return {i, i, 0};
    }
    int i0 = static_cast<int>(std::floor(u - 0.5f)), i1 = i0 + 1;
    if (i0 < 0)
      i0 += n;
    if (i1 > n - 1)
      i1 -= n;
    return {i0, i1, fracf(u - 0.5f)};
  }
  if (mode == CL_ADDRESS_MIRRORED_REPEAT) {
    float sp = std::fabs(s - 2.0f * std::nearbyint(0.5f * s));
    u = sp * n;
    if (!linear) {
      int i = std::min(static_cast<int>(std::floor(u)), n - 1);
      return {i, i, 0};
    }
    int i0 = static_cast<int>(std::floor(u - 0.5f)), i1 = i0 + 1;
    return {std::max(i0, 0), std::min(i1, n - 1), fracf(u - 0.5f)};
  }
  auto addr = [&](int i) { return mode == CL_ADDRESS_CLAMP ? clampBorder(i) : clampEdge(i); };
  if (!linear) {
    int i = addr(static_cast<int>(std::floor(u)));
    return {i, i, 0};
  }
  int i0 = static_cast<int>(std::floor(u - 0.5f));
  return {addr(i0), addr(i0 + 1), fracf(u - 0.5f)};
}

// read_imagef through samplers passed as arguments and declared in the program, at
// coordinates inside, between and outside the texels, against the reference above.
TEST_F(Images, SamplersAddressAndFilterAsTheSpecificationSays) {
  const char *src = R"CL(
kernel void sample(read_only image2d_t img, sampler_t s, global const float2* coords,
                   global float4* out) {
  int i = get_global_id(0);
  out[i] = read_imagef(img, s, coords[i]);
}
constant sampler_t kEdgeLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                                 CLK_FILTER_LINEAR;
kernel void sample_declared(read_only image2d_t img, global const float2* coords,
                            global float4* out) {
  const sampler_t repeatNearest = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |
                                  CLK_FILTER_NEAREST;
  int i = get_global_id(0);
  out[2 * i] = read_imagef(img, kEdgeLinear, coords[i]);
  out[2 * i + 1] = read_imagef(img, repeatNearest, coords[i] / (float2)(5.0f, 4.0f));
}
)CL";
  cl_program prog = build(src);
  const int w = 5, h = 4;
  std::vector<float> texels(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      texels[y * w + x] = static_cast<float>(x + 10 * y) + 0.25f;
  cl_image_format fmt{CL_R, CL_FLOAT};
  cl_mem img = image(fmt, desc2d(w, h), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, texels.data());
  auto texel = [&](int x, int y) -> float {
    if (x < 0 || x >= w || y < 0 || y >= h)
      return 0.0f; // CL_R's border is (0, 0, 0, 1)
    return texels[y * w + x];
  };
  // Unnormalised coordinates; normalised samplers get them divided by the size.
  std::vector<cl_float2> coords;
  for (float y : {-1.3f, 0.2f, 0.5f, 1.7f, 2.5f, 3.9f, 4.6f, 7.2f})
    for (float x : {-2.2f, -0.4f, 0.3f, 0.5f, 1.6f, 2.25f, 4.4f, 4.9f, 5.3f, 6.8f, 11.1f})
      coords.push_back({{x, y}});
  const size_t n = coords.size();
  struct Mode {
    cl_bool normalized;
    cl_addressing_mode addressing;
    cl_filter_mode filter;
  };
  const Mode modes[] = {{CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST},
                        {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST},
                        {CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR},
                        {CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR},
                        {CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR},
                        {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST},
                        {CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR},
                        {CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST},
                        {CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR}};
  auto reference = [&](const Mode &m, cl_float2 c) {
    float sx = m.normalized ? c.s[0] / w : c.s[0], sy = m.normalized ? c.s[1] / h : c.s[1];
    bool linear = m.filter == CL_FILTER_LINEAR;
    Axis ax = address(sx, w, m.normalized, m.addressing, linear);
    Axis ay = address(sy, h, m.normalized, m.addressing, linear);
    if (!linear)
      return texel(ax.i0, ay.i0);
    return (1 - ax.a) * (1 - ay.a) * texel(ax.i0, ay.i0) + ax.a * (1 - ay.a) * texel(ax.i1, ay.i0) +
           (1 - ax.a) * ay.a * texel(ax.i0, ay.i1) + ax.a * ay.a * texel(ax.i1, ay.i1);
  };
  auto expectNear = [](float got, float want, const std::string &what) {
    EXPECT_NEAR(got, want, 1e-3f + 1e-4f * std::fabs(want)) << what;
  };
  cl_kernel k = kernel(prog, "sample");
  for (const Mode &m : modes) {
    std::vector<cl_float2> cs = coords;
    if (m.normalized)
      for (auto &c : cs)
        c = {{c.s[0] / w, c.s[1] / h}};
    cl_mem in = bufferFrom(cs);
    cl_mem out = buffer(n * sizeof(cl_float4));
    cl_sampler s = sampler(m.normalized, m.addressing, m.filter);
    setArgs(k, img, s, in, out);
    run(k, {n});
    auto got = read<cl_float4>(out, n);
    for (size_t i = 0; i < n; ++i) {
      std::string what = "mode " + std::to_string(m.normalized) + "/" +
                         std::to_string(m.addressing) + "/" + std::to_string(m.filter) + " at (" +
                         std::to_string(coords[i].s[0]) + ", " + std::to_string(coords[i].s[1]) +
                         ")";
      expectNear(got[i].s[0], reference(m, coords[i]), what);
      // g and b are 0, a is 1 inside; CLAMP's border is (0, 0, 0, 1) for CL_R too.
      expectNear(got[i].s[1], 0.0f, what + " g");
      expectNear(got[i].s[3], 1.0f, what + " a");
    }
  }
  // Samplers the program declares (program scope and kernel scope).
  cl_mem in = bufferFrom(coords);
  cl_mem out = buffer(2 * n * sizeof(cl_float4));
  cl_kernel kd = kernel(prog, "sample_declared");
  setArgs(kd, img, in, out);
  run(kd, {n});
  auto got = read<cl_float4>(out, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    expectNear(got[2 * i].s[0],
               reference({CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR}, coords[i]),
               "program-scope sampler " + std::to_string(i));
    expectNear(got[2 * i + 1].s[0],
               reference({CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST}, coords[i]),
               "kernel-scope sampler " + std::to_string(i));
  }
}

// Kernels see each image type's shape through get_image_*, write 3D images, 2D image
// arrays and images made from buffers.
TEST_F(Images, KernelsWriteEveryImageTypeAndQueryIt) {
  const char *src = R"CL(
kernel void fill3d(write_only image3d_t img, global int* info) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imageui(img, p, (uint4)(p.x, p.y, p.z, 7));
  if (p.x == 0 && p.y == 0 && p.z == 0) {
    info[0] = get_image_width(img); info[1] = get_image_height(img);
    info[2] = get_image_depth(img);
    info[3] = get_image_channel_order(img) == CLK_RGBA;
    info[4] = get_image_channel_data_type(img) == CLK_UNSIGNED_INT8;
  }
}
kernel void fill2darray(write_only image2d_array_t img, global int* info) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagef(img, p, (float4)(p.x * 0.25f, p.z, 0, 1));
  if (p.x == 0 && p.y == 0 && p.z == 0) {
    int2 d = get_image_dim(img);
    info[0] = d.x; info[1] = d.y; info[2] = (int)get_image_array_size(img);
  }
}
kernel void fill1dbuffer(write_only image1d_buffer_t img) {
  int x = get_global_id(0);
  write_imageui(img, x, (uint4)(x * 3, 0, 0, 0));
}
kernel void fill2d(write_only image2d_t img) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(img, p, (float4)(p.x + 100 * p.y, 0, 0, 0));
}
)CL";
  cl_program prog = build(src);
  cl_mem info = buffer(16 * sizeof(cl_int));
  {
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE3D;
    d.image_width = 6;
    d.image_height = 5;
    d.image_depth = 3;
    cl_image_format fmt{CL_RGBA, CL_UNSIGNED_INT8};
    cl_mem img = image(fmt, d, CL_MEM_WRITE_ONLY);
    cl_kernel k = kernel(prog, "fill3d");
    setArgs(k, img, info);
    run(k, {6, 5, 3});
    std::vector<uint8_t> px(6 * 5 * 3 * 4);
    size_t o[3] = {0, 0, 0}, r[3] = {6, 5, 3};
    ASSERT_CL(clEnqueueReadImage(queue_, img, CL_TRUE, o, r, 0, 0, px.data(), 0, nullptr, nullptr));
    for (int z = 0; z < 3; ++z)
      for (int y = 0; y < 5; ++y)
        for (int x = 0; x < 6; ++x) {
          const uint8_t *p = &px[((z * 5 + y) * 6 + x) * 4];
          ASSERT_EQ(p[0], x);
          ASSERT_EQ(p[1], y);
          ASSERT_EQ(p[2], z);
          ASSERT_EQ(p[3], 7);
        }
    auto v = read<cl_int>(info, 5);
    EXPECT_EQ(v, (std::vector<cl_int>{6, 5, 3, 1, 1}));
  }
  {
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
    d.image_width = 8;
    d.image_height = 2;
    d.image_array_size = 4;
    cl_image_format fmt{CL_RG, CL_FLOAT};
    cl_mem img = image(fmt, d, CL_MEM_WRITE_ONLY);
    cl_kernel k = kernel(prog, "fill2darray");
    setArgs(k, img, info);
    run(k, {8, 2, 4});
    std::vector<float> px(8 * 2 * 4 * 2);
    size_t o[3] = {0, 0, 0}, r[3] = {8, 2, 4};
    ASSERT_CL(clEnqueueReadImage(queue_, img, CL_TRUE, o, r, 0, 0, px.data(), 0, nullptr, nullptr));
    for (int z = 0; z < 4; ++z)
      for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 8; ++x) {
          ASSERT_EQ(px[((z * 2 + y) * 8 + x) * 2], x * 0.25f);
          ASSERT_EQ(px[((z * 2 + y) * 8 + x) * 2 + 1], static_cast<float>(z));
        }
    auto v = read<cl_int>(info, 3);
    EXPECT_EQ(v, (std::vector<cl_int>{8, 2, 4}));
  }
  { // A 1D image buffer writes into its buffer.
    cl_mem buf = buffer(64 * sizeof(cl_uint));
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d.image_width = 64;
    d.buffer = buf;
    cl_image_format fmt{CL_R, CL_UNSIGNED_INT32};
    cl_mem img = image(fmt, d, CL_MEM_WRITE_ONLY);
    cl_kernel k = kernel(prog, "fill1dbuffer");
    setArgs(k, img);
    run(k, {64});
    auto v = read<cl_uint>(buf, 64);
    for (cl_uint x = 0; x < 64; ++x)
      ASSERT_EQ(v[x], x * 3);
  }
  { // A 2D image from a buffer (cl_khr_image2d_from_buffer), with a row pitch.
    const size_t w = 10, h = 3, pitch = 16;
    cl_mem buf = buffer(pitch * h * sizeof(float));
    std::vector<float> init(pitch * h, -1.0f);
    write(buf, init);
    cl_image_desc d = desc2d(w, h);
    d.image_row_pitch = pitch * sizeof(float);
    d.buffer = buf;
    cl_image_format fmt{CL_R, CL_FLOAT};
    cl_mem img = image(fmt, d, CL_MEM_READ_WRITE);
    cl_kernel k = kernel(prog, "fill2d");
    setArgs(k, img);
    run(k, {w, h});
    auto v = read<float>(buf, pitch * h);
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < pitch; ++x)
        ASSERT_EQ(v[y * pitch + x], x < w ? static_cast<float>(x + 100 * y) : -1.0f)
            << x << "," << y;
  }
}

TEST_F(Images, KernelArgumentsAreChecked) {
  const char *src = R"CL(
kernel void k(read_only image2d_t a, write_only image2d_t b, sampler_t s) {
  write_imagef(b, (int2)(0, 0), read_imagef(a, s, (float2)(0.5f, 0.5f)));
}
)CL";
  cl_kernel k = kernelFrom(src, "k");
  cl_image_format fmt{CL_RGBA, CL_FLOAT};
  cl_mem ro = image(fmt, desc2d(4, 4), CL_MEM_READ_ONLY);
  cl_mem wo = image(fmt, desc2d(4, 4), CL_MEM_WRITE_ONLY);
  cl_image_desc d3{};
  d3.image_type = CL_MEM_OBJECT_IMAGE3D;
  d3.image_width = d3.image_height = d3.image_depth = 2;
  cl_mem vol = image(fmt, d3);
  cl_mem buf = buffer(64);
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &vol));
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 0, sizeof(cl_mem), &wo));
  EXPECT_CL_ERR(CL_INVALID_ARG_VALUE, clSetKernelArg(k, 1, sizeof(cl_mem), &ro));
  cl_sampler notASampler = reinterpret_cast<cl_sampler>(buf);
  EXPECT_CL_ERR(CL_INVALID_SAMPLER, clSetKernelArg(k, 2, sizeof(cl_sampler), &notASampler));
  cl_sampler s = sampler(CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
  EXPECT_CL_ERR(CL_INVALID_ARG_SIZE, clSetKernelArg(k, 2, 4, &s));
  // An image is not a buffer argument either.
  cl_kernel kb = kernelFrom("kernel void kb(global int* p) { p[0] = 1; }", "kb");
  EXPECT_CL_ERR(CL_INVALID_MEM_OBJECT, clSetKernelArg(kb, 0, sizeof(cl_mem), &ro));
  // And the right ones run.
  float white[4] = {1, 2, 3, 4};
  size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1};
  std::vector<float> px(16 * 4);
  for (size_t i = 0; i < px.size(); ++i)
    px[i] = white[i % 4];
  ASSERT_CL(clEnqueueWriteImage(queue_, ro, CL_TRUE, o, r, 0, 0, px.data(), 0, nullptr, nullptr));
  setArgs(k, ro, wo, s);
  run(k, {1});
  float got[4] = {0, 0, 0, 0};
  size_t one[3] = {1, 1, 1};
  ASSERT_CL(clEnqueueReadImage(queue_, wo, CL_TRUE, o, one, 0, 0, got, 0, nullptr, nullptr));
  EXPECT_EQ(std::vector<float>(got, got + 4), std::vector<float>(white, white + 4));
}

TEST_F(Images, SamplerObjects) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateSampler(context_, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err),
            nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  EXPECT_EQ(clCreateSampler(context_, CL_TRUE, 0x9999, CL_FILTER_NEAREST, &err), nullptr);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);
  cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                   CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  cl_sampler s = clCreateSamplerWithProperties(context_, props, &err);
  ASSERT_CL(err);
  cl_bool norm = CL_TRUE;
  cl_addressing_mode am = 0;
  cl_filter_mode fm = 0;
  ASSERT_CL(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, nullptr));
  ASSERT_CL(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, nullptr));
  ASSERT_CL(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, nullptr));
  EXPECT_EQ(norm, static_cast<cl_bool>(CL_FALSE));
  EXPECT_EQ(am, static_cast<cl_addressing_mode>(CL_ADDRESS_CLAMP)); // the default
  EXPECT_EQ(fm, static_cast<cl_filter_mode>(CL_FILTER_LINEAR));
  size_t size = 0;
  ASSERT_CL(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof props);
  ASSERT_CL(clRetainSampler(s));
  cl_uint refs = 0;
  ASSERT_CL(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr));
  EXPECT_EQ(refs, 2u);
  ASSERT_CL(clReleaseSampler(s));
  ASSERT_CL(clReleaseSampler(s));
}

} // namespace
} // namespace fcltest
