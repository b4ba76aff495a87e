/* corpus_runner: builds and launches one case of the corpus (corpus/<case>.cl).
 * Usage: corpus_runner <case> [elements]   (elements only for the bench_* cases; a 2-D
 * case's grid keeps its width)
 * Prints the build log on failure, then "status <execution status>" and the kernel's
 * time from the profiling counters; exits 0 once the command has finished. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CORPUS_DIR
#define CORPUS_DIR "corpus"
#endif

enum third { NONE, LOCAL_64_INTS, FLAG, BUFFER };

struct test_case {
  const char *name, *file; /* file: corpus/<file>.cl */
  const char *options;
  size_t n, global, local; /* buffer elements (4 bytes each), NDRange */
  int in_read_only;        /* argument 0 created CL_MEM_READ_ONLY */
  enum third third;        /* argument 2, if any */
  size_t width;            /* 2-D: a grid of n elements, `width` wide, in groups of local^2 */
};

#define CL20 "-cl-std=CL2.0"
static const struct test_case cases[] = {
    {"bounds_global_off_by_one", 0, "", 256, 256, 64, 0, NONE},
    {"bounds_negative_index", 0, "", 256, 256, 64, 0, NONE},
    {"bounds_local_read_past", 0, "", 256, 256, 64, 0, NONE},
    {"bounds_local_arg_write_past", 0, "", 256, 256, 64, 0, LOCAL_64_INTS},
    {"bounds_private_array", 0, "", 256, 256, 64, 0, NONE},
    {"bounds_constant_table", 0, "", 256, 256, 64, 0, NONE},
    {"flags_write_read_only", 0, "", 256, 256, 64, 1, NONE},
    {"uninit_local_read", 0, "", 256, 256, 64, 0, NONE},
    {"race_missing_barrier_tree_reduction", 0, "", 256, 256, 64, 0, NONE},
    {"race_flag_handshake_plain", 0, "", 16, 2, 1, 0, FLAG},
    {"race_relaxed_instead_of_release", 0, CL20, 16, 2, 1, 0, FLAG},
    {"race_wg_scope_atomic_across_groups", 0, CL20, 16, 2, 1, 0, FLAG},
    {"divergence_barrier_in_if", 0, "", 16, 16, 16, 0, NONE},
    {"correct_vecadd", 0, "", 256, 256, 64, 0, BUFFER},
    {"correct_tree_reduction", 0, "", 256, 256, 64, 0, NONE},
    {"correct_release_acquire_handshake", 0, CL20, 16, 2, 1, 0, FLAG},
    {"correct_tile_stencil", 0, "", 64 * 48, 0, 16, 0, NONE, 64},
    {"bench_vecadd", "correct_vecadd", "", 1 << 22, 1 << 22, 64, 0, BUFFER},
    {"bench_tree_reduction", "correct_tree_reduction", "", 1 << 22, 1 << 22, 64, 0, NONE},
    {"bench_tile_stencil", "correct_tile_stencil", "", 1 << 20, 0, 16, 0, NONE, 1024},
};

static void check(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    fprintf(stderr, "corpus_runner: %s failed: %d\n", what, err);
    exit(1);
  }
}

static char *read_source(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.cl", CORPUS_DIR, file);
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *text = calloc(size + 1, 1);
  if (fread(text, 1, size, f) != (size_t)size)
    exit(1);
  fclose(f);
  return text;
}

int main(int argc, char **argv) {
  const struct test_case *c = NULL;
  for (size_t i = 0; argc > 1 && i < sizeof cases / sizeof cases[0]; i++)
    if (!strcmp(argv[1], cases[i].name))
      c = &cases[i];
  if (!c) {
    fprintf(stderr, "usage: %s <case> [elements]; cases:\n", argv[0]);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
      fprintf(stderr, "  %s\n", cases[i].name);
    return 2;
  }
  size_t n = c->n, global = c->global;
  if (argc > 2 && !strncmp(c->name, "bench_", 6))
    n = global = strtoul(argv[2], NULL, 0);

  cl_int err;
  cl_platform_id platform;
  cl_device_id device;
  check(clGetPlatformIDs(1, &platform, NULL), "clGetPlatformIDs");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  check(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
  check(err, "clCreateCommandQueue");

  const char *src = read_source(c->file ? c->file : c->name);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(prog, 1, &device, c->options, NULL, NULL) != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    printf("build failed:\n%s\nstatus build_failed\n", log);
    return 1;
  }
  cl_kernel k;
  check(clCreateKernelsInProgram(prog, 1, &k, NULL), "clCreateKernelsInProgram");

  /* in[i] = i, all other buffers zero */
  int *init = malloc(n * sizeof(int));
  for (size_t i = 0; i < n; i++)
    init[i] = (int)i;
  cl_mem_flags in_flags = c->in_read_only ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
  cl_mem in = clCreateBuffer(ctx, in_flags | CL_MEM_COPY_HOST_PTR, n * 4, init, &err);
  check(err, "clCreateBuffer(in)");
  memset(init, 0, n * sizeof(int));
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, init, &err);
  check(err, "clCreateBuffer(out)");
  check(clSetKernelArg(k, 0, sizeof in, &in), "clSetKernelArg(0)");
  check(clSetKernelArg(k, 1, sizeof out, &out), "clSetKernelArg(1)");
  cl_mem third = NULL;
  if (c->third == LOCAL_64_INTS) {
    check(clSetKernelArg(k, 2, 64 * sizeof(int), NULL), "clSetKernelArg(2)");
  } else if (c->third != NONE) {
    size_t bytes = c->third == FLAG ? sizeof(int) : n * 4;
    third = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, init, &err);
    check(err, "clCreateBuffer(third)");
    check(clSetKernelArg(k, 2, sizeof third, &third), "clSetKernelArg(2)");
  }

  cl_event ev;
  size_t grid[2] = {global, 1}, local[2] = {c->local, 1};
  if (c->width) { /* 2-D */
    grid[0] = c->width;
    grid[1] = n / c->width;
    local[1] = c->local;
  }
  check(clEnqueueNDRangeKernel(q, k, c->width ? 2 : 1, NULL, grid, local, 0, NULL, &ev),
        "clEnqueueNDRangeKernel");
  clWaitForEvents(1, &ev); /* fails when the command did: the status below says how */
  cl_int status = 1;
  check(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
        "clGetEventInfo");
  printf("status %d\n", status);
  int first[2] = {0, 0}; /* the first two ints of argument 1, e.g. the value seen and the spins */
  if (status == CL_COMPLETE &&
      clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof first, first, 0, NULL, NULL) == CL_SUCCESS)
    printf("out %d %d\n", first[0], first[1]);
  cl_ulong start = 0, end = 0;
  if (status == CL_COMPLETE &&
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) ==
          CL_SUCCESS &&
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) ==
          CL_SUCCESS)
    printf("kernel_ms %.3f\n", (end - start) * 1e-6);
  fflush(stdout);

  clReleaseEvent(ev);
  if (third)
    clReleaseMemObject(third);
  clReleaseMemObject(out);
  clReleaseMemObject(in);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(init);
  free((void *)src);
  return 0;
}
