/* Image built-ins (OpenCL C 3.0 s6.15.15, cl_khr_3d_image_writes, cl_khr_depth_images):
 * read_image{f,i,ui} with and without samplers, write_image{f,i,ui}, get_image_*.
 *
 * An image argument is the address of its fcl_image descriptor, a sampler its bits
 * (fibercl/image_abi.h; the typed views come from image_handles.cl). Pixels are
 * decoded by channel data type and order to RGBA and encoded back with the
 * specification's conversion rules (s8.3: normalised integers round to nearest even
 * and saturate, NaN becomes 0). The format branches depend only on the descriptor, so
 * they take the same way for every work-item. Coordinates are in "memory terms":
 * (x, y, z) with a 1D array's layer as y and a 2D array's as z.
 * Out-of-range coordinates of sampler-less reads are clamped and writes outside the
 * image are dropped (both undefined by the specification; neither may fault).
 */
#include "fcl_internal.h"
#include "fibercl/image_abi.h"

typedef const __global fcl_image *fcl_img;

/* ---- typed views of the handles (image_handles.cl) ------------------------------ */

#define FCL_DESC(ACC, T)                                                                  \
  __attribute__((overloadable)) fcl_img fcl_desc(ACC T image) __asm__("__fcl_image_desc");
#define FCL_DESC_ALL(T) FCL_DESC(read_only, T) FCL_DESC(write_only, T) FCL_DESC(read_write, T)
FCL_DESC_ALL(image1d_t)
FCL_DESC_ALL(image1d_buffer_t)
FCL_DESC_ALL(image1d_array_t)
FCL_DESC_ALL(image2d_t)
FCL_DESC_ALL(image2d_array_t)
FCL_DESC_ALL(image3d_t)
FCL_DESC_ALL(image2d_depth_t)
FCL_DESC_ALL(image2d_array_depth_t)
uint fcl_sampler_bits(sampler_t s) __asm__("__fcl_sampler_bits");

/* ---- pixels --------------------------------------------------------------------- */

static inline __global uchar *fcl_pixel(fcl_img d, int4 c) {
  return (__global uchar *)d->data + (size_t)c.x * d->pixel_size + (size_t)c.y * d->row_pitch +
         (size_t)c.z * d->slice_pitch;
}

static inline int4 fcl_extent(fcl_img d) {
  /* In memory terms: a 1D array's layers are its y, a 2D array's its z. */
  int4 e = (int4)((int)d->width, (int)d->height, (int)d->depth, 1);
  if (d->image_type == FCL_IMAGE_TYPE_1D_ARRAY)
    e.y = (int)d->array_size;
  else if (d->image_type == FCL_IMAGE_TYPE_2D_ARRAY)
    e.z = (int)d->array_size;
  return e;
}

static inline bool fcl_inside(fcl_img d, int4 c) {
  int4 e = fcl_extent(d);
  return c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x < e.x && c.y < e.y && c.z < e.z;
}

static inline int4 fcl_clamp_to_image(fcl_img d, int4 c) {
  int4 e = fcl_extent(d);
  return (int4)(clamp(c.x, 0, e.x - 1), clamp(c.y, 0, e.y - 1), clamp(c.z, 0, e.z - 1), 0);
}

/* Stored channels per pixel of the non-packed formats (CL_sRGBx's fourth is padding,
 * read as alpha 1; CL_Rx and CL_RGx store no padding). */
static inline int fcl_stored_channels(uint order) {
  switch (order) {
  case CLK_RG: case CLK_RA: case CLK_RGx: return 2;
  case CLK_RGB: case CLK_sRGB: return 3;
  case CLK_RGBA: case CLK_BGRA: case CLK_ARGB: case CLK_ABGR: case CLK_sRGBA:
  case CLK_sBGRA: case CLK_sRGBx: return 4;
  default: return 1;
  }
}

static inline bool fcl_is_srgb(uint order) {
  return order == CLK_sRGB || order == CLK_sRGBx || order == CLK_sRGBA || order == CLK_sBGRA;
}

static inline bool fcl_has_alpha(uint order) {
  return order == CLK_A || order == CLK_RA || order == CLK_RGBA || order == CLK_BGRA ||
         order == CLK_ARGB || order == CLK_ABGR || order == CLK_INTENSITY ||
         order == CLK_sRGBA || order == CLK_sBGRA;
}

/* Stored channels -> RGBA; missing colour channels are 0, a missing alpha is ONE. */
#define FCL_SWIZZLE(SUF, VT, ST, ONE)                                                      \
  static inline VT fcl_swizzle_##SUF(uint order, ST c0, ST c1, ST c2, ST c3) {             \
    switch (order) {                                                                       \
    case CLK_A: return (VT)((ST)0, (ST)0, (ST)0, c0);                                      \
    case CLK_RG: case CLK_RGx: return (VT)(c0, c1, (ST)0, ONE);                            \
    case CLK_RA: return (VT)(c0, (ST)0, (ST)0, c1);                                        \
    case CLK_RGB: case CLK_RGBx: case CLK_sRGB: case CLK_sRGBx: return (VT)(c0, c1, c2, ONE); \
    case CLK_BGRA: case CLK_sBGRA: return (VT)(c2, c1, c0, c3);                            \
    case CLK_ARGB: return (VT)(c1, c2, c3, c0);                                            \
    case CLK_ABGR: return (VT)(c3, c2, c1, c0);                                            \
    case CLK_INTENSITY: return (VT)(c0);                                                   \
    case CLK_LUMINANCE: return (VT)(c0, c0, c0, ONE);                                      \
    case CLK_RGBA: case CLK_sRGBA: return (VT)(c0, c1, c2, c3);                            \
    default: return (VT)(c0, (ST)0, (ST)0, ONE); /* R, Rx, DEPTH */                         \
    }                                                                                      \
  }
FCL_SWIZZLE(f, float4, float, 1.0f)
FCL_SWIZZLE(i, int4, int, 1)
FCL_SWIZZLE(ui, uint4, uint, 1u)

/* RGBA -> what the stored channels hold, in storage order. */
#define FCL_UNSWIZZLE(SUF, VT)                                                             \
  static inline VT fcl_unswizzle_##SUF(uint order, VT v) {                                 \
    switch (order) {                                                                       \
    case CLK_A: return v.wwww;                                                             \
    case CLK_RA: return v.xwww;                                                            \
    case CLK_BGRA: case CLK_sBGRA: return v.zyxw;                                          \
    case CLK_ARGB: return v.wxyz;                                                          \
    case CLK_ABGR: return v.wzyx;                                                          \
    default: return v; /* the others store r, g, b, a from the front */                    \
    }                                                                                      \
  }
FCL_UNSWIZZLE(f, float4)
FCL_UNSWIZZLE(i, int4)
FCL_UNSWIZZLE(ui, uint4)

static inline float fcl_srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : pow((c + 0.055f) / 1.055f, 2.4f);
}
static inline float fcl_linear_to_srgb(float c) {
  if (isnan(c))
    return 0.0f;
  c = clamp(c, 0.0f, 1.0f);
  return c <= 0.0031308f ? 12.92f * c : 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
}

static inline int fcl_channel_i(const __global uchar *p, uint type, int i) {
  switch (type) {
  case CLK_SIGNED_INT8: return ((const __global char *)p)[i];
  case CLK_SIGNED_INT16: return ((const __global short *)p)[i];
  case CLK_UNSIGNED_INT8: return p[i];
  case CLK_UNSIGNED_INT16: return ((const __global ushort *)p)[i];
  default: return ((const __global int *)p)[i];
  }
}

static inline uint fcl_channel_ui(const __global uchar *p, uint type, int i) {
  return (uint)fcl_channel_i(p, type, i);
}

/* The first n (1 to 4) channels of type T at p, as a T4 (the rest 0): one load when
 * all four are stored. */
#define FCL_LOAD_CHANNELS(T)                                                               \
  static inline T##4 fcl_load4_##T(const __global uchar *p, int n) {                       \
    const __global T *q = (const __global T *)p;                                           \
    if (n == 4)                                                                            \
      return vload4(0, q);                                                                 \
    return (T##4)(q[0], n > 1 ? q[1] : (T)0, n > 2 ? q[2] : (T)0, (T)0);                   \
  }
/* Stores the first n (1 to 4) channels of v at p. */
#define FCL_STORE_CHANNELS(T)                                                              \
  static inline void fcl_store4_##T(__global uchar *p, int n, T##4 v) {                    \
    __global T *q = (__global T *)p;                                                       \
    if (n == 4) {                                                                          \
      vstore4(v, 0, q);                                                                    \
      return;                                                                              \
    }                                                                                      \
    q[0] = v.x;                                                                            \
    if (n > 1)                                                                             \
      q[1] = v.y;                                                                          \
    if (n > 2)                                                                             \
      q[2] = v.z;                                                                          \
  }
FCL_STORE_CHANNELS(uchar)
FCL_STORE_CHANNELS(char)
FCL_STORE_CHANNELS(ushort)
FCL_STORE_CHANNELS(short)
FCL_STORE_CHANNELS(float)

FCL_LOAD_CHANNELS(uchar)
FCL_LOAD_CHANNELS(char)
FCL_LOAD_CHANNELS(ushort)
FCL_LOAD_CHANNELS(short)
FCL_LOAD_CHANNELS(float)

static inline int4 fcl_decode_i(fcl_img d, int4 c);

/* The pixel at c (inside the image) as RGBA. */
static inline float4 fcl_decode_f(fcl_img d, int4 c) {
  const __global uchar *p = fcl_pixel(d, c);
  uint type = d->channel_data_type, order = d->channel_order;
  int n = fcl_stored_channels(order);
  float4 s; /* the stored channels, in storage order */
  switch (type) {
  case CLK_UNORM_INT8: s = convert_float4(fcl_load4_uchar(p, n)) / 255.0f; break;
  case CLK_SNORM_INT8: s = fmax(-1.0f, convert_float4(fcl_load4_char(p, n)) / 127.0f); break;
  case CLK_UNORM_INT16: s = convert_float4(fcl_load4_ushort(p, n)) / 65535.0f; break;
  case CLK_SNORM_INT16: s = fmax(-1.0f, convert_float4(fcl_load4_short(p, n)) / 32767.0f); break;
  case CLK_FLOAT: s = fcl_load4_float(p, n); break;
  case CLK_HALF_FLOAT:
    s = n == 4 ? vload_half4(0, (const __global half *)p)
               : (float4)(vload_half(0, (const __global half *)p),
                          n > 1 ? vload_half(1, (const __global half *)p) : 0.0f,
                          n > 2 ? vload_half(2, (const __global half *)p) : 0.0f, 0.0f);
    break;
  case CLK_UNORM_SHORT_565: {
    uint v = *(const __global ushort *)p;
    return (float4)((v >> 11) & 31u, (v >> 5) & 63u, v & 31u, 1) / (float4)(31, 63, 31, 1);
  }
  case CLK_UNORM_SHORT_555: {
    uint v = *(const __global ushort *)p;
    return (float4)((v >> 10) & 31u, (v >> 5) & 31u, v & 31u, 31) / 31.0f;
  }
  case CLK_UNORM_INT_101010: {
    uint v = *(const __global uint *)p;
    return (float4)((v >> 20) & 1023u, (v >> 10) & 1023u, v & 1023u, 1023) / 1023.0f;
  }
  default: /* integer formats (read_imagef on them is undefined): their values */
    return convert_float4(fcl_decode_i(d, c));
  }
  float4 v = fcl_swizzle_f(order, s.x, s.y, s.z, s.w);
  if (fcl_is_srgb(order))
    v = (float4)(fcl_srgb_to_linear(v.x), fcl_srgb_to_linear(v.y), fcl_srgb_to_linear(v.z), v.w);
  return v;
}

#define FCL_DECODE_INT(SUF, VT, ST)                                                        \
  static inline VT fcl_decode_##SUF(fcl_img d, int4 c) {                                   \
    const __global uchar *p = fcl_pixel(d, c);                                             \
    uint type = d->channel_data_type, order = d->channel_order;                            \
    int n = fcl_stored_channels(order);                                                    \
    ST c0 = fcl_channel_##SUF(p, type, 0);                                                 \
    ST c1 = n > 1 ? fcl_channel_##SUF(p, type, 1) : (ST)0;                                 \
    ST c2 = n > 2 ? fcl_channel_##SUF(p, type, 2) : (ST)0;                                 \
    ST c3 = n > 3 ? fcl_channel_##SUF(p, type, 3) : (ST)0;                                 \
    return fcl_swizzle_##SUF(order, c0, c1, c2, c3);                                       \
  }
FCL_DECODE_INT(i, int4, int)
FCL_DECODE_INT(ui, uint4, uint)

/* Writes RGBA `v` at c (inside the image). */
static inline void fcl_encode_f(fcl_img d, int4 c, float4 v) {
  __global uchar *p = fcl_pixel(d, c);
  uint type = d->channel_data_type, order = d->channel_order;
  if (type == CLK_UNORM_SHORT_565) {
    uint4 q = convert_uint4_sat_rte(v * (float4)(31, 63, 31, 0));
    *(__global ushort *)p = (ushort)(q.x << 11 | q.y << 5 | q.z);
    return;
  }
  if (type == CLK_UNORM_SHORT_555) {
    uint4 q = convert_uint4_sat_rte(v * 31.0f);
    *(__global ushort *)p = (ushort)(min(q.x, 31u) << 10 | min(q.y, 31u) << 5 | min(q.z, 31u));
    return;
  }
  if (type == CLK_UNORM_INT_101010) {
    uint4 q = min(convert_uint4_sat_rte(v * 1023.0f), 1023u);
    *(__global uint *)p = q.x << 20 | q.y << 10 | q.z;
    return;
  }
  if (fcl_is_srgb(order))
    v = (float4)(fcl_linear_to_srgb(v.x), fcl_linear_to_srgb(v.y), fcl_linear_to_srgb(v.z), v.w);
  float4 s = fcl_unswizzle_f(order, v); /* CL_sRGBx's x byte gets alpha, as in the CTS */
  int n = fcl_stored_channels(order);
  switch (type) {
  case CLK_UNORM_INT8: fcl_store4_uchar(p, n, convert_uchar4_sat_rte(s * 255.0f)); break;
  case CLK_SNORM_INT8: fcl_store4_char(p, n, convert_char4_sat_rte(s * 127.0f)); break;
  case CLK_UNORM_INT16: fcl_store4_ushort(p, n, convert_ushort4_sat_rte(s * 65535.0f)); break;
  case CLK_SNORM_INT16: fcl_store4_short(p, n, convert_short4_sat_rte(s * 32767.0f)); break;
  case CLK_FLOAT: fcl_store4_float(p, n, s); break;
  case CLK_HALF_FLOAT: {
    float ch[4] = {s.x, s.y, s.z, s.w};
    for (int i = 0; i < n; ++i)
      vstore_half_rte(ch[i], i, (__global half *)p);
    break;
  }
  default: break; /* integer formats take write_imagei/ui */
  }
}

static inline void fcl_encode_i(fcl_img d, int4 c, int4 v) {
  __global uchar *p = fcl_pixel(d, c);
  uint type = d->channel_data_type;
  int4 s = fcl_unswizzle_i(d->channel_order, v);
  int ch[4] = {s.x, s.y, s.z, s.w};
  int n = fcl_stored_channels(d->channel_order);
  for (int i = 0; i < n; ++i) {
    switch (type) {
    case CLK_SIGNED_INT8: ((__global char *)p)[i] = convert_char_sat(ch[i]); break;
    case CLK_SIGNED_INT16: ((__global short *)p)[i] = convert_short_sat(ch[i]); break;
    case CLK_SIGNED_INT32: ((__global int *)p)[i] = ch[i]; break;
    default: break;
    }
  }
}

static inline void fcl_encode_ui(fcl_img d, int4 c, uint4 v) {
  __global uchar *p = fcl_pixel(d, c);
  uint type = d->channel_data_type;
  uint4 s = fcl_unswizzle_ui(d->channel_order, v);
  uint ch[4] = {s.x, s.y, s.z, s.w};
  int n = fcl_stored_channels(d->channel_order);
  for (int i = 0; i < n; ++i) {
    switch (type) {
    case CLK_UNSIGNED_INT8: p[i] = convert_uchar_sat(ch[i]); break;
    case CLK_UNSIGNED_INT16: ((__global ushort *)p)[i] = convert_ushort_sat(ch[i]); break;
    case CLK_UNSIGNED_INT32: ((__global uint *)p)[i] = ch[i]; break;
    default: break;
    }
  }
}

/* ---- sampling (OpenCL 3.0 API s4.2, "Image Addressing and Filtering") --------------- */

#define FCL_ADDRESS(bits) ((bits) & FCL_SAMPLER_ADDRESS_MASK)
#define FCL_LINEAR(bits) (((bits) & FCL_SAMPLER_FILTER_MASK) == CLK_FILTER_LINEAR)

/* Nearest: the texel index on an axis of n texels; -1 or n mean the border colour. */
static inline int fcl_nearest(float s, int n, uint bits) {
  uint mode = FCL_ADDRESS(bits);
  bool normalized = bits & FCL_SAMPLER_NORMALIZED_COORDS;
  if (normalized && mode == CLK_ADDRESS_REPEAT) {
    int i = (int)floor((s - floor(s)) * n);
    return i > n - 1 ? i - n : i;
  }
  if (normalized && mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    float m = fabs(s - 2.0f * rint(0.5f * s));
    return min((int)floor(m * n), n - 1);
  }
  float u = normalized ? s * n : s;
  float f = floor(u);
  if (mode == CLK_ADDRESS_CLAMP)
    return (int)clamp(f, -1.0f, (float)n);
  /* CLAMP_TO_EDGE, and NONE (in range by contract; clamped so it cannot fault) */
  return (int)clamp(f, 0.0f, (float)(n - 1));
}

/* Linear: the two texel indices around the sample point and the weight of the second. */
static inline float fcl_linear(float s, int n, uint bits, int *i0, int *i1) {
  uint mode = FCL_ADDRESS(bits);
  bool normalized = bits & FCL_SAMPLER_NORMALIZED_COORDS;
  float u;
  if (normalized && mode == CLK_ADDRESS_REPEAT) {
    u = (s - floor(s)) * n;
    int a = (int)floor(u - 0.5f), b = a + 1;
    *i0 = a < 0 ? a + n : a;
    *i1 = b > n - 1 ? b - n : b;
    return (u - 0.5f) - floor(u - 0.5f);
  }
  if (normalized && mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    u = fabs(s - 2.0f * rint(0.5f * s)) * n;
    int a = (int)floor(u - 0.5f);
    *i0 = max(a, 0);
    *i1 = min(a + 1, n - 1);
    return (u - 0.5f) - floor(u - 0.5f);
  }
  u = normalized ? s * n : s;
  float f = floor(u - 0.5f);
  float lo = mode == CLK_ADDRESS_CLAMP ? -1.0f : 0.0f;
  float hi = mode == CLK_ADDRESS_CLAMP ? (float)n : (float)(n - 1);
  *i0 = (int)clamp(f, lo, hi);
  *i1 = (int)clamp(f + 1.0f, lo, hi);
  return (u - 0.5f) - f;
}

/* The layer an array coordinate selects. */
static inline int fcl_layer(float l, fcl_img d) {
  return (int)clamp(rint(l), 0.0f, (float)((int)d->array_size - 1));
}

/* The texel at memory coordinate c, or the border colour outside the image. */
#define FCL_TEXEL(SUF, VT, ONE)                                                            \
  static inline VT fcl_texel_##SUF(fcl_img d, int4 c) {                                    \
    if (!fcl_inside(d, c))                                                                 \
      return fcl_has_alpha(d->channel_order) ? (VT)(0) : (VT)(0, 0, 0, ONE);               \
    return fcl_decode_##SUF(d, c);                                                         \
  }
FCL_TEXEL(f, float4, 1.0f)
FCL_TEXEL(i, int4, 1)
FCL_TEXEL(ui, uint4, 1u)

/* Samples `dims` spatial axes of s; `layer` >= 0 goes to memory axis `dims` (arrays). */
#define FCL_SAMPLE_NEAREST(SUF, VT)                                                        \
  static inline VT fcl_nearest_##SUF(fcl_img d, uint bits, float4 s, int dims, int layer) { \
    int n[3] = {(int)d->width, (int)d->height, (int)d->depth};                             \
    float sv[3] = {s.x, s.y, s.z};                                                         \
    int c[3] = {0, 0, 0};                                                                  \
    for (int k = 0; k < dims; ++k)                                                         \
      c[k] = fcl_nearest(sv[k], n[k], bits);                                               \
    if (layer >= 0)                                                                        \
      c[dims] = layer;                                                                     \
    return fcl_texel_##SUF(d, (int4)(c[0], c[1], c[2], 0));                                \
  }
FCL_SAMPLE_NEAREST(f, float4)
FCL_SAMPLE_NEAREST(i, int4)
FCL_SAMPLE_NEAREST(ui, uint4)

/* Integer images are always sampled nearest (linear filtering is undefined for them). */
static inline int4 fcl_sample_i(fcl_img d, uint bits, float4 s, int dims, int layer) {
  return fcl_nearest_i(d, bits, s, dims, layer);
}
static inline uint4 fcl_sample_ui(fcl_img d, uint bits, float4 s, int dims, int layer) {
  return fcl_nearest_ui(d, bits, s, dims, layer);
}

/* Linear: the weighted sum of the 2, 4 or 8 texels around the sample point. */
static inline float4 fcl_sample_f(fcl_img d, uint bits, float4 s, int dims, int layer) {
  if (!FCL_LINEAR(bits))
    return fcl_nearest_f(d, bits, s, dims, layer);
  int n[3] = {(int)d->width, (int)d->height, (int)d->depth};
  float sv[3] = {s.x, s.y, s.z};
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  for (int k = 0; k < dims; ++k)
    a[k] = fcl_linear(sv[k], n[k], bits, &lo[k], &hi[k]);
  float4 sum = (float4)(0);
  for (int t = 0; t < (1 << dims); ++t) {
    int c[3] = {0, 0, 0};
    float w = 1.0f;
    for (int k = 0; k < dims; ++k) {
      bool up = (t >> k) & 1;
      c[k] = up ? hi[k] : lo[k];
      w *= up ? a[k] : 1.0f - a[k];
    }
    if (layer >= 0)
      c[dims] = layer;
    sum += w * fcl_texel_f(d, (int4)(c[0], c[1], c[2], 0));
  }
  return sum;
}

/* ---- the built-ins ---------------------------------------------------------------- */

/* How each image type turns its coordinate into (spatial sample point, layer) and a
 * memory coordinate: DIMS spatial axes, ARRAY whether the next coordinate is a layer. */
#define FCL_SPATIAL1(c) ((float4)((float)(c), 0, 0, 0))
#define FCL_SPATIAL(c) ((float4)(convert_float(c.x), convert_float(c.y), convert_float(c.z), 0))

/* Sampled reads: read_image<SUF>(ACC T, sampler_t, CT coord). */
#define FCL_READ_SAMPLED(SUF, VT, T, CT, DIMS, LAYER_OF, POINT)                            \
  FCL_OVL VT read_image##SUF(read_only T image, sampler_t sampler, CT coord) {             \
    fcl_img d = fcl_desc(image);                                                           \
    uint bits = fcl_sampler_bits(sampler);                                                 \
    return fcl_sample_##SUF(d, bits, POINT, DIMS, LAYER_OF);                               \
  }

/* Sampler-less reads and writes: the memory coordinate of an integer coordinate. */
#define FCL_READ_PLAIN(SUF, VT, ACC, T, CT, MEM)                                           \
  FCL_OVL VT read_image##SUF(ACC T image, CT coord) {                                      \
    fcl_img d = fcl_desc(image);                                                           \
    return fcl_decode_##SUF(d, fcl_clamp_to_image(d, MEM));                                \
  }
#define FCL_WRITE(SUF, VT, ACC, T, CT, MEM)                                                \
  FCL_OVL void write_image##SUF(ACC T image, CT coord, VT color) {                         \
    fcl_img d = fcl_desc(image);                                                           \
    int4 c = MEM;                                                                          \
    if (fcl_inside(d, c))                                                                  \
      fcl_encode_##SUF(d, c, color);                                                       \
  }

#define FCL_MEM1 ((int4)(coord, 0, 0, 0))
#define FCL_MEM2 ((int4)(coord.x, coord.y, 0, 0))
#define FCL_MEM4 ((int4)(coord.x, coord.y, coord.z, 0))

#define FCL_ALL_TYPES(M, ...)                                                              \
  M(f, float4, __VA_ARGS__) M(i, int4, __VA_ARGS__) M(ui, uint4, __VA_ARGS__)

/* image1d_t: float or int coordinate. */
#define FCL_IMAGE1D(SUF, VT, _)                                                            \
  FCL_READ_SAMPLED(SUF, VT, image1d_t, float, 1, -1, FCL_SPATIAL1(coord))                  \
  FCL_READ_SAMPLED(SUF, VT, image1d_t, int, 1, -1, FCL_SPATIAL1(coord))                    \
  FCL_READ_PLAIN(SUF, VT, read_only, image1d_t, int, FCL_MEM1)                             \
  FCL_READ_PLAIN(SUF, VT, read_write, image1d_t, int, FCL_MEM1)                            \
  FCL_READ_PLAIN(SUF, VT, read_only, image1d_buffer_t, int, FCL_MEM1)                      \
  FCL_READ_PLAIN(SUF, VT, read_write, image1d_buffer_t, int, FCL_MEM1)                     \
  FCL_WRITE(SUF, VT, write_only, image1d_t, int, FCL_MEM1)                                 \
  FCL_WRITE(SUF, VT, read_write, image1d_t, int, FCL_MEM1)                                 \
  FCL_WRITE(SUF, VT, write_only, image1d_buffer_t, int, FCL_MEM1)                          \
  FCL_WRITE(SUF, VT, read_write, image1d_buffer_t, int, FCL_MEM1)
FCL_ALL_TYPES(FCL_IMAGE1D, _)

/* image1d_array_t: (x, layer). */
#define FCL_IMAGE1D_ARRAY(SUF, VT, _)                                                      \
  FCL_READ_SAMPLED(SUF, VT, image1d_array_t, float2, 1, fcl_layer(coord.y, d),             \
                   FCL_SPATIAL1(coord.x))                                                  \
  FCL_READ_SAMPLED(SUF, VT, image1d_array_t, int2, 1, fcl_layer((float)coord.y, d),        \
                   FCL_SPATIAL1(coord.x))                                                  \
  FCL_READ_PLAIN(SUF, VT, read_only, image1d_array_t, int2, FCL_MEM2)                      \
  FCL_READ_PLAIN(SUF, VT, read_write, image1d_array_t, int2, FCL_MEM2)                     \
  FCL_WRITE(SUF, VT, write_only, image1d_array_t, int2, FCL_MEM2)                          \
  FCL_WRITE(SUF, VT, read_write, image1d_array_t, int2, FCL_MEM2)
FCL_ALL_TYPES(FCL_IMAGE1D_ARRAY, _)

/* image2d_t: (x, y). */
#define FCL_IMAGE2D(SUF, VT, _)                                                            \
  FCL_READ_SAMPLED(SUF, VT, image2d_t, float2, 2, -1, ((float4)(coord.x, coord.y, 0, 0)))  \
  FCL_READ_SAMPLED(SUF, VT, image2d_t, int2, 2, -1,                                        \
                   ((float4)((float)coord.x, (float)coord.y, 0, 0)))                       \
  FCL_READ_PLAIN(SUF, VT, read_only, image2d_t, int2, FCL_MEM2)                            \
  FCL_READ_PLAIN(SUF, VT, read_write, image2d_t, int2, FCL_MEM2)                           \
  FCL_WRITE(SUF, VT, write_only, image2d_t, int2, FCL_MEM2)                                \
  FCL_WRITE(SUF, VT, read_write, image2d_t, int2, FCL_MEM2)
FCL_ALL_TYPES(FCL_IMAGE2D, _)

/* image2d_array_t: (x, y, layer). */
#define FCL_IMAGE2D_ARRAY(SUF, VT, _)                                                      \
  FCL_READ_SAMPLED(SUF, VT, image2d_array_t, float4, 2, fcl_layer(coord.z, d),             \
                   ((float4)(coord.x, coord.y, 0, 0)))                                     \
  FCL_READ_SAMPLED(SUF, VT, image2d_array_t, int4, 2, fcl_layer((float)coord.z, d),        \
                   ((float4)((float)coord.x, (float)coord.y, 0, 0)))                       \
  FCL_READ_PLAIN(SUF, VT, read_only, image2d_array_t, int4, FCL_MEM4)                      \
  FCL_READ_PLAIN(SUF, VT, read_write, image2d_array_t, int4, FCL_MEM4)                     \
  FCL_WRITE(SUF, VT, write_only, image2d_array_t, int4, FCL_MEM4)                          \
  FCL_WRITE(SUF, VT, read_write, image2d_array_t, int4, FCL_MEM4)
FCL_ALL_TYPES(FCL_IMAGE2D_ARRAY, _)

/* image3d_t: (x, y, z). */
#define FCL_IMAGE3D(SUF, VT, _)                                                            \
  FCL_READ_SAMPLED(SUF, VT, image3d_t, float4, 3, -1, ((float4)(coord.x, coord.y, coord.z, 0))) \
  FCL_READ_SAMPLED(SUF, VT, image3d_t, int4, 3, -1, FCL_SPATIAL(coord))                    \
  FCL_READ_PLAIN(SUF, VT, read_only, image3d_t, int4, FCL_MEM4)                            \
  FCL_READ_PLAIN(SUF, VT, read_write, image3d_t, int4, FCL_MEM4)                           \
  FCL_WRITE(SUF, VT, write_only, image3d_t, int4, FCL_MEM4)                                \
  FCL_WRITE(SUF, VT, read_write, image3d_t, int4, FCL_MEM4)
FCL_ALL_TYPES(FCL_IMAGE3D, _)

/* Depth images: one float channel. */
FCL_OVL float read_imagef(read_only image2d_depth_t image, sampler_t sampler, float2 coord) {
  fcl_img d = fcl_desc(image);
  return fcl_sample_f(d, fcl_sampler_bits(sampler), (float4)(coord.x, coord.y, 0, 0), 2, -1).x;
}
FCL_OVL float read_imagef(read_only image2d_depth_t image, sampler_t sampler, int2 coord) {
  return read_imagef(image, sampler, convert_float2(coord));
}
FCL_OVL float read_imagef(read_only image2d_array_depth_t image, sampler_t sampler,
                          float4 coord) {
  fcl_img d = fcl_desc(image);
  return fcl_sample_f(d, fcl_sampler_bits(sampler), (float4)(coord.x, coord.y, 0, 0), 2,
                      fcl_layer(coord.z, d))
      .x;
}
FCL_OVL float read_imagef(read_only image2d_array_depth_t image, sampler_t sampler,
                          int4 coord) {
  return read_imagef(image, sampler, convert_float4(coord));
}
#define FCL_DEPTH_RW(ACC)                                                                  \
  FCL_OVL float read_imagef(ACC image2d_depth_t image, int2 coord) {                       \
    fcl_img d = fcl_desc(image);                                                           \
    return fcl_decode_f(d, fcl_clamp_to_image(d, (int4)(coord.x, coord.y, 0, 0))).x;       \
  }                                                                                        \
  FCL_OVL float read_imagef(ACC image2d_array_depth_t image, int4 coord) {                 \
    fcl_img d = fcl_desc(image);                                                           \
    return fcl_decode_f(d, fcl_clamp_to_image(d, (int4)(coord.x, coord.y, coord.z, 0))).x; \
  }
FCL_DEPTH_RW(read_only)
FCL_DEPTH_RW(read_write)
#define FCL_DEPTH_WRITE(ACC)                                                               \
  FCL_OVL void write_imagef(ACC image2d_depth_t image, int2 coord, float depth) {          \
    fcl_img d = fcl_desc(image);                                                           \
    int4 c = (int4)(coord.x, coord.y, 0, 0);                                               \
    if (fcl_inside(d, c))                                                                  \
      fcl_encode_f(d, c, (float4)(depth, 0, 0, 1));                                        \
  }                                                                                        \
  FCL_OVL void write_imagef(ACC image2d_array_depth_t image, int4 coord, float depth) {    \
    fcl_img d = fcl_desc(image);                                                           \
    int4 c = (int4)(coord.x, coord.y, coord.z, 0);                                         \
    if (fcl_inside(d, c))                                                                  \
      fcl_encode_f(d, c, (float4)(depth, 0, 0, 1));                                        \
  }
FCL_DEPTH_WRITE(write_only)
FCL_DEPTH_WRITE(read_write)

/* ---- queries ---------------------------------------------------------------------- */

#define FCL_QUERIES_ACC(ACC, T)                                                            \
  FCL_OVL int get_image_width(ACC T image) { return (int)fcl_desc(image)->width; }         \
  FCL_OVL int get_image_channel_data_type(ACC T image) {                                   \
    return (int)fcl_desc(image)->channel_data_type;                                        \
  }                                                                                        \
  FCL_OVL int get_image_channel_order(ACC T image) {                                       \
    return (int)fcl_desc(image)->channel_order;                                            \
  }
#define FCL_QUERIES(T)                                                                     \
  FCL_QUERIES_ACC(read_only, T) FCL_QUERIES_ACC(write_only, T) FCL_QUERIES_ACC(read_write, T)
FCL_QUERIES(image1d_t)
FCL_QUERIES(image1d_buffer_t)
FCL_QUERIES(image1d_array_t)
FCL_QUERIES(image2d_t)
FCL_QUERIES(image2d_array_t)
FCL_QUERIES(image3d_t)
FCL_QUERIES(image2d_depth_t)
FCL_QUERIES(image2d_array_depth_t)

#define FCL_HEIGHT_DIM2(ACC, T)                                                            \
  FCL_OVL int get_image_height(ACC T image) { return (int)fcl_desc(image)->height; }       \
  FCL_OVL int2 get_image_dim(ACC T image) {                                                \
    fcl_img d = fcl_desc(image);                                                           \
    return (int2)((int)d->width, (int)d->height);                                          \
  }
#define FCL_ARRAY_SIZE(ACC, T)                                                             \
  FCL_OVL size_t get_image_array_size(ACC T image) { return fcl_desc(image)->array_size; }
#define FCL_PER_ACC(M, T) M(read_only, T) M(write_only, T) M(read_write, T)
FCL_PER_ACC(FCL_HEIGHT_DIM2, image2d_t)
FCL_PER_ACC(FCL_HEIGHT_DIM2, image2d_array_t)
FCL_PER_ACC(FCL_HEIGHT_DIM2, image2d_depth_t)
FCL_PER_ACC(FCL_HEIGHT_DIM2, image2d_array_depth_t)
FCL_PER_ACC(FCL_ARRAY_SIZE, image1d_array_t)
FCL_PER_ACC(FCL_ARRAY_SIZE, image2d_array_t)
FCL_PER_ACC(FCL_ARRAY_SIZE, image2d_array_depth_t)
#define FCL_3D(ACC, T)                                                                     \
  FCL_OVL int get_image_height(ACC T image) { return (int)fcl_desc(image)->height; }       \
  FCL_OVL int get_image_depth(ACC T image) { return (int)fcl_desc(image)->depth; }         \
  FCL_OVL int4 get_image_dim(ACC T image) {                                                \
    fcl_img d = fcl_desc(image);                                                           \
    return (int4)((int)d->width, (int)d->height, (int)d->depth, 0);                        \
  }
FCL_PER_ACC(FCL_3D, image3d_t)

/* read_imageh / write_imageh (cl_khr_fp16): the float forms, converted (half ->
 * float is exact; float -> half rounds to nearest even). */
#define FCL_HALF_SAMPLED(T, CT)                                                            \
  FCL_OVL half4 read_imageh(read_only T image, sampler_t sampler, CT coord) {              \
    return convert_half4(read_imagef(image, sampler, coord));                              \
  }
#define FCL_HALF_PLAIN(ACC, T, CT)                                                         \
  FCL_OVL half4 read_imageh(ACC T image, CT coord) {                                       \
    return convert_half4(read_imagef(image, coord));                                       \
  }
#define FCL_HALF_WRITE(ACC, T, CT)                                                         \
  FCL_OVL void write_imageh(ACC T image, CT coord, half4 color) {                          \
    write_imagef(image, coord, convert_float4(color));                                     \
  }
#define FCL_HALF_ACCESS(T, CT)                                                             \
  FCL_HALF_PLAIN(read_only, T, CT) FCL_HALF_PLAIN(read_write, T, CT)                       \
  FCL_HALF_WRITE(write_only, T, CT) FCL_HALF_WRITE(read_write, T, CT)
FCL_HALF_SAMPLED(image1d_t, int)
FCL_HALF_SAMPLED(image1d_t, float)
FCL_HALF_SAMPLED(image2d_t, int2)
FCL_HALF_SAMPLED(image2d_t, float2)
FCL_HALF_SAMPLED(image3d_t, int4)
FCL_HALF_SAMPLED(image3d_t, float4)
FCL_HALF_SAMPLED(image1d_array_t, int2)
FCL_HALF_SAMPLED(image1d_array_t, float2)
FCL_HALF_SAMPLED(image2d_array_t, int4)
FCL_HALF_SAMPLED(image2d_array_t, float4)
FCL_HALF_ACCESS(image1d_t, int)
FCL_HALF_ACCESS(image1d_buffer_t, int)
FCL_HALF_ACCESS(image1d_array_t, int2)
FCL_HALF_ACCESS(image2d_t, int2)
FCL_HALF_ACCESS(image2d_array_t, int4)
FCL_HALF_ACCESS(image3d_t, int4)
