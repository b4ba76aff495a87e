// The image format table and the host-side pixel encoder (clEnqueueFillImage).
#include "runtime/image_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace fibercl::runtime {

namespace {

constexpr cl_channel_type kAllTypes[] = {
    CL_SNORM_INT8,   CL_SNORM_INT16,  CL_UNORM_INT8,      CL_UNORM_INT16,     CL_SIGNED_INT8,
    CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,   CL_UNSIGNED_INT16,  CL_UNSIGNED_INT32,
    CL_HALF_FLOAT,   CL_FLOAT,        CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010};

constexpr cl_channel_order kAllOrders[] = {CL_R,         CL_A,     CL_RG,    CL_RA,   CL_RGB,
                                           CL_RGBA,      CL_BGRA,  CL_ARGB,  CL_ABGR, CL_INTENSITY,
                                           CL_LUMINANCE, CL_Rx,    CL_RGx,   CL_RGBx, CL_sRGB,
                                           CL_sRGBx,     CL_sRGBA, CL_sBGRA, CL_DEPTH};

bool isPacked(cl_channel_type t) {
  return t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
}

// The OpenCL 3.0 API specification's table of valid order/type pairs.
bool validPair(cl_channel_order o, cl_channel_type t) {
  switch (o) {
  case CL_RGB:
  case CL_RGBx:
    return isPacked(t);
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
           t == CL_HALF_FLOAT || t == CL_FLOAT;
  case CL_ARGB:
  case CL_BGRA:
  case CL_ABGR:
    return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    return t == CL_UNORM_INT8;
  case CL_DEPTH:
    return t == CL_UNORM_INT16 || t == CL_FLOAT;
  case CL_R:
  case CL_A:
  case CL_RG:
  case CL_RA:
  case CL_RGBA:
  case CL_Rx:
  case CL_RGx:
    return !isPacked(t);
  default:
    return false;
  }
}

size_t channelBytes(cl_channel_type t) {
  switch (t) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  default:
    return 4;
  }
}

// Which of the colour's components (0 r, 1 g, 2 b, 3 a) each stored channel holds.
unsigned storedComponents(cl_channel_order o, unsigned *component) {
  auto set = [&](std::initializer_list<unsigned> c) {
    std::copy(c.begin(), c.end(), component);
    return static_cast<unsigned>(c.size());
  };
  switch (o) {
  case CL_A:
    return set({3});
  case CL_RG:
  case CL_RGx:
    return set({0, 1});
  case CL_RA:
    return set({0, 3});
  case CL_RGBA:
  case CL_sRGBA:
  case CL_sRGBx: // its x byte holds alpha, as the CTS expects
    return set({0, 1, 2, 3});
  case CL_BGRA:
  case CL_sBGRA:
    return set({2, 1, 0, 3});
  case CL_ARGB:
    return set({3, 0, 1, 2});
  case CL_ABGR:
    return set({3, 2, 1, 0});
  case CL_sRGB:
    return set({0, 1, 2});
  default: // R, Rx, INTENSITY, LUMINANCE, DEPTH
    return set({0});
  }
}

uint16_t floatToHalf(float f) {
  // Round to nearest even, as write_imagef does for CL_HALF_FLOAT.
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t mag = x & 0x7fffffff;
  if (mag > 0x7f800000) // NaN
    return static_cast<uint16_t>(sign | 0x7e00);
  if (mag >= 0x477ff000) // rounds to infinity (>= 65520)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (mag < 0x38800000) { // subnormal half (or zero)
    float a;
    std::memcpy(&a, &mag, 4);
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(a * 16777216.0f)));
  }
  uint32_t h = ((mag - 0x38000000) >> 13);
  uint32_t rest = mag & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return static_cast<uint16_t>(sign | h);
}

float linearToSrgb(float c) {
  if (std::isnan(c))
    return 0.0f;
  c = std::clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

// Normalised conversion: round to nearest even, saturate; NaN is 0.
long normalised(float f, float scale, long lo, long hi) {
  if (std::isnan(f))
    return 0;
  return std::clamp(static_cast<long>(std::nearbyint(std::clamp(f * scale, float(lo), float(hi)))),
                    lo, hi);
}

template <class T> void store(unsigned char *p, T v) { std::memcpy(p, &v, sizeof v); }

} // namespace

size_t pixelSize(const cl_image_format &f) {
  if (!validPair(f.image_channel_order, f.image_channel_data_type))
    return 0;
  if (isPacked(f.image_channel_data_type))
    return f.image_channel_data_type == CL_UNORM_INT_101010 ? 4 : 2;
  return channelCount(f.image_channel_order) * channelBytes(f.image_channel_data_type);
}

unsigned channelCount(cl_channel_order o) {
  switch (o) {
  case CL_RG:
  case CL_RA:
  case CL_RGx: // the x channels of CL_Rx and CL_RGx take no storage
    return 2;
  case CL_RGB:
  case CL_sRGB:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_RGBx:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    return 4;
  default:
    return 1;
  }
}

std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type type) {
  std::vector<cl_image_format> out;
  for (cl_channel_order o : kAllOrders)
    for (cl_channel_type t : kAllTypes) {
      cl_image_format f{o, t};
      if (isSupportedImageFormat(f, type))
        out.push_back(f);
    }
  return out;
}

bool isSupportedImageFormat(const cl_image_format &f, cl_mem_object_type type) {
  if (!pixelSize(f))
    return false;
  if (f.image_channel_order == CL_DEPTH)
    return type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  return true;
}

void encodePixel(const cl_image_format &f, const void *color, unsigned char *pixel) {
  cl_channel_type t = f.image_channel_data_type;
  cl_channel_order o = f.image_channel_order;
  float c[4];
  int32_t si[4];
  uint32_t ui[4];
  std::memcpy(c, color, 16);
  std::memcpy(si, color, 16);
  std::memcpy(ui, color, 16);
  if (o == CL_sRGB || o == CL_sRGBx || o == CL_sRGBA || o == CL_sBGRA)
    for (int i = 0; i < 3; ++i)
      c[i] = linearToSrgb(c[i]);
  switch (t) {
  case CL_UNORM_SHORT_565:
    store<uint16_t>(pixel, static_cast<uint16_t>(normalised(c[0], 31, 0, 31) << 11 |
                                                 normalised(c[1], 63, 0, 63) << 5 |
                                                 normalised(c[2], 31, 0, 31)));
    return;
  case CL_UNORM_SHORT_555:
    store<uint16_t>(pixel, static_cast<uint16_t>(normalised(c[0], 31, 0, 31) << 10 |
                                                 normalised(c[1], 31, 0, 31) << 5 |
                                                 normalised(c[2], 31, 0, 31)));
    return;
  case CL_UNORM_INT_101010:
    store<uint32_t>(pixel, static_cast<uint32_t>(normalised(c[0], 1023, 0, 1023) << 20 |
                                                 normalised(c[1], 1023, 0, 1023) << 10 |
                                                 normalised(c[2], 1023, 0, 1023)));
    return;
  default:
    break;
  }
  unsigned component[4];
  unsigned n = storedComponents(o, component);
  size_t bytes = channelBytes(t);
  for (unsigned i = 0; i < n; ++i) {
    unsigned k = component[i];
    unsigned char *p = pixel + i * bytes;
    switch (t) {
    case CL_SNORM_INT8:
      store<int8_t>(p, static_cast<int8_t>(normalised(c[k], 127, -128, 127)));
      break;
    case CL_UNORM_INT8:
      store<uint8_t>(p, static_cast<uint8_t>(normalised(c[k], 255, 0, 255)));
      break;
    case CL_SNORM_INT16:
      store<int16_t>(p, static_cast<int16_t>(normalised(c[k], 32767, -32768, 32767)));
      break;
    case CL_UNORM_INT16:
      store<uint16_t>(p, static_cast<uint16_t>(normalised(c[k], 65535, 0, 65535)));
      break;
    case CL_SIGNED_INT8:
      store<int8_t>(p, static_cast<int8_t>(std::clamp<int32_t>(si[k], -128, 127)));
      break;
    case CL_SIGNED_INT16:
      store<int16_t>(p, static_cast<int16_t>(std::clamp<int32_t>(si[k], -32768, 32767)));
      break;
    case CL_SIGNED_INT32:
      store<int32_t>(p, si[k]);
      break;
    case CL_UNSIGNED_INT8:
      store<uint8_t>(p, static_cast<uint8_t>(std::min<uint32_t>(ui[k], 255)));
      break;
    case CL_UNSIGNED_INT16:
      store<uint16_t>(p, static_cast<uint16_t>(std::min<uint32_t>(ui[k], 65535)));
      break;
    case CL_UNSIGNED_INT32:
      store<uint32_t>(p, ui[k]);
      break;
    case CL_HALF_FLOAT:
      store<uint16_t>(p, floatToHalf(c[k]));
      break;
    case CL_FLOAT:
      store<float>(p, c[k]);
      break;
    }
  }
}

} // namespace fibercl::runtime
