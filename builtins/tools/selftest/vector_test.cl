/* Self-test: shuffle/shuffle2, vloadN/vstoreN in several address spaces. */
int t_vector(__global int *gi, __global double *gd, __local short *ls) {
  int bad = 0;
  float4 x = (float4)(1.0f, 2.0f, 3.0f, 4.0f), y = (float4)(5.0f, 6.0f, 7.0f, 8.0f);
  float8 s = shuffle(x, (uint8)(3, 2, 1, 0, 7, 6, 5, 4)); /* only the low 2 bits count */
  bad += any(s != (float8)(4.0f, 3.0f, 2.0f, 1.0f, 4.0f, 3.0f, 2.0f, 1.0f));
  float2 s2 = shuffle2(x, y, (uint2)(6, 9));
  bad += s2.x != 7.0f || s2.y != 2.0f; /* 9 & 7 = 1 */
  uchar16 m = (uchar16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  char16 c = shuffle((char16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), m);
  bad += c.s0 != 15 || c.sf != 0 || c.s7 != 8;
  ulong4 ls4 = shuffle((ulong2)(10, 20), (ulong4)(1, 0, 1, 1));
  bad += ls4.x != 20 || ls4.y != 10;
  double4 d4 = shuffle2((double2)(1.0, 2.0), (double2)(3.0, 4.0), (ulong4)(3, 2, 1, 0));
  bad += d4.x != 4.0 || d4.w != 1.0;
  /* vload/vstore, unaligned offsets, 3-element ones touch exactly 3 elements */
  for (int i = 0; i < 64; ++i) gi[i] = i;
  int3 v3 = vload3(1, gi + 1);
  bad += v3.x != 4 || v3.y != 5 || v3.z != 6;
  vstore3((int3)(-1, -2, -3), 2, gi + 1);
  bad += gi[6] != 6 || gi[7] != -1 || gi[9] != -3 || gi[10] != 10;
  int16 v16 = vload16(1, gi + 3);
  bad += v16.s0 != 19 || v16.sf != 34;
  vstore8(v16.lo, 0, gi + 41);
  bad += gi[41] != 19 || gi[48] != 26 || gi[49] != 49;
  private long pl[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  long4 l4 = vload4(1, pl);
  bad += l4.x != 4 || l4.w != 7;
  vstore2((long2)(9, 8), 3, pl);
  bad += pl[6] != 9 || pl[7] != 8;
  for (int i = 0; i < 16; ++i) ls[i] = (short)i;
  short8 sv = vload8(0, ls + 3);
  bad += sv.s0 != 3 || sv.s7 != 10;
  vstore4((short4)(-5), 1, ls);
  bad += ls[3] != 3 || ls[4] != -5 || ls[8] != 8;
  gd[0] = 1.5; gd[1] = 2.5; gd[2] = 3.5;
  double2 dv = vload2(0, (const __global double *)gd + 1);
  bad += dv.x != 2.5 || dv.y != 3.5;
  __generic double *gp = gd;
  vstore2((double2)(7.0, 8.0), 0, gp);
  bad += gd[0] != 7.0 || gd[1] != 8.0;
  return bad;
}
