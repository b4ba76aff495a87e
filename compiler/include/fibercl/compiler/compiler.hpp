// The compiler's interface to the runtime: OpenCL C in, binaries and JIT-compiled
// work-group functions out. No LLVM or Clang type appears here, so the runtime
// builds without their headers (DESIGN.md: runtime/ knows nothing of Clang).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fibercl/kernel_abi.h"

namespace fibercl::compiler {

// What an argument is, as clSetKernelArg must treat it.
enum class ArgKind {
  Value,           // passed by value: arg_size must equal KernelArg::size
  GlobalPointer,   // __global buffer (cl_mem or NULL)
  ConstantPointer, // __constant buffer (cl_mem or NULL)
  LocalPointer,    // __local: arg_value NULL, arg_size = bytes to allocate
  Sampler,         // sampler_t: the argument holds the sampler bits (fibercl/image_abi.h)
  Image,           // image*_t: the argument holds the descriptor address
  Pipe,
  Queue,
};

// CL_KERNEL_ARG_* values, with the OpenCL enum numbers so the runtime can copy them.
struct KernelArg {
  ArgKind kind = ArgKind::Value;
  uint32_t size = 0;         // bytes of the value clSetKernelArg takes (8 for pointers)
  uint32_t addressQualifier; // CL_KERNEL_ARG_ADDRESS_{GLOBAL,LOCAL,CONSTANT,PRIVATE}
  uint32_t accessQualifier;  // CL_KERNEL_ARG_ACCESS_{READ_ONLY,...,NONE}
  uint64_t typeQualifier;    // CL_KERNEL_ARG_TYPE_{CONST,RESTRICT,VOLATILE,PIPE} bits
  std::string typeName;      // e.g. "float4*", "uint"
  std::string name;          // the parameter's name
};

// A yield point or barrier call site of a kernel, for reports ("spinning at f.cl:12").
struct SiteInfo {
  enum class Kind : uint32_t {
    Barrier,
    LoopPoll,
    AtomicRead,
    AtomicWrite,
    Fence,
    VolatileRead,
    VolatileWrite,
    Cooperative,     // offer_kill, request_fork, global_barrier, resizing_global_barrier, query
    SubGroupBarrier, // a sub-group barrier (also each of a sub-group function's own)
    BoundsRead,      // a checked access (FIBERCL_CHECK=bounds, races) that reads `object`
    BoundsWrite,     // ... that writes it (atomics: both)
    UninitRead       // a read of __local memory checked for a write before it (uninit)
  };
  static constexpr Kind kLastKind = Kind::UninitRead;
  // The `site` argument of FIBERCL_HOST_BARRIER / FIBERCL_HOST_YIELD, without the
  // FIBERCL_SITE_WAITING bit.
  uint32_t id = 0;
  Kind kind = Kind::LoopPoll;
  bool waiting = false; // inside a loop that may spin (kernel_abi.h)
  uint32_t line = 0;    // 0 when unknown
  std::string file;     // "<source>" for the program's own source
  std::string function; // the source function the site is in ("" when unknown)
  // What the function assumes of the scheduler to terminate, if it says (the
  // fibercl.progress annotation of the primitives library): named in deadlock reports.
  std::string progress;
  // A checked access's object: "argument 1 'out'", "__local variable 'tmp' (256
  // bytes)", "private variable 'a' (40 bytes)".
  std::string object;
  uint64_t objectBytes = 0; // a variable's size (arguments: the launch's check table)
};

struct KernelInfo {
  std::string name;
  std::vector<KernelArg> args;
  std::string attributes; // CL_KERNEL_ATTRIBUTES, e.g. "reqd_work_group_size(8,1,1)"
  uint64_t reqdWorkGroupSize[3] = {0, 0, 0}; // all 0 when not given
  uint64_t staticLocalSize = 0;              // bytes of kernel-scope __local variables
  uint64_t privateMemSize = 0;               // bytes of stack per work-item (estimate)
  bool usesBarriers = false;                 // calls barrier()
  // Its barriers are compiled as regions (work-item loops between barriers); false:
  // its work-items run on fibers (FIBERCL_DEBUG=barriers says why).
  bool barrierRegions = false;
  bool usesPrintf = false;
  bool yields = false; // has yield points (atomics or volatile accesses on global memory)
  // Has a loop that may wait for another work-group: its groups run as suspendable
  // fibers under the scheduler. A kernel that only `yields` does so in deterministic
  // mode (to explore interleavings); otherwise each group runs to completion.
  bool mayBlock = false;
  // Calls the cooperative kernels functions (fibercl/cooperative.h): its groups are
  // killed and forked at run time (always scheduled; 1-D launches only).
  bool cooperative = false;
  // Its sub-group size S (builtins/lib/fcl_sub_group.h), and the one its
  // intel_reqd_sub_group_size attribute requires (0: none).
  uint32_t subGroupSize = 0;
  uint32_t requiredSubGroupSize = 0;
  // It also has a vector copy, K.sgvec: each sub-group one vector of S lanes, for
  // launches whose rows of work-items are whole sub-groups
  // (compiler/src/passes/sub_group_vectors.cpp).
  bool subGroupVectors = false;
  // Built with FIBERCL_CHECK=bounds: its launches pass a check table (kernel_abi.h).
  bool boundsChecked = false;
  // Built with FIBERCL_CHECK=uninit: its launches keep a shadow of __local memory.
  bool uninitChecked = false;
  // Built with FIBERCL_CHECK=races: its __local and __global accesses call CHECK_RACE.
  bool racesChecked = false;
  // ... and of its pointer arguments (bit i: argument i), those it only reads, and those
  // each work-item of a 1-D launch accesses at an offset of its own: the runtime marks
  // them FCL_CHECK_RACE_FREE when no other argument overlaps them, and their accesses
  // are not recorded (compiler/src/passes/race_free_arguments.hpp).
  uint64_t raceReadOnlyArgs = 0;
  uint64_t raceOwnOffsetArgs = 0;
  // Built with FIBERCL_CHECK=weak: its __global accesses go through store buffers.
  bool weakMemory = false;
  std::vector<SiteInfo> sites; // barrier and yield sites, by id
};

// The kinds of binary clGetProgramInfo(CL_PROGRAM_BINARY_TYPE) reports.
enum class BinaryKind { None, CompiledObject, Library, Executable };

// A program binary in FiberCL's own container (magic, kind, kernel table, bitcode).
// It is what CL_PROGRAM_BINARIES returns and clCreateProgramWithBinary accepts.
struct Binary {
  BinaryKind kind = BinaryKind::None;
  std::vector<uint8_t> bytes;
};

// The outcome of compile / link / build. `log` carries Clang's diagnostics (with line
// and column) or the linker's errors; on failure `binary.kind` is None.
struct Result {
  bool success = false;
  std::string log;
  Binary binary;
  std::vector<KernelInfo> kernels; // filled for executables
  // When success is false because the options were invalid (not the source),
  // the runtime returns CL_INVALID_{COMPILER,LINKER,BUILD}_OPTIONS.
  bool invalidOptions = false;
};

struct Header {
  std::string includeName; // as given to clCompileProgram's header_include_names
  std::string source;
};

// clCompileProgram: OpenCL C source -> compiled object.
Result compile(const std::string &source, const std::string &options,
               const std::vector<Header> &headers = {});

// clLinkProgram: objects/libraries -> library (createLibrary) or executable.
Result link(const std::vector<const Binary *> &inputs, const std::string &options,
            bool createLibrary);

// clBuildProgram from source: compile + link into an executable.
Result build(const std::string &source, const std::string &options);

// Whether a program compiled or built with `options` is launched with uniform
// work-groups only: -cl-uniform-work-group-size, or OpenCL C before 2.0 (the default).
bool uniformWorkGroups(const std::string &options);

// Values of a SPIR-V module's specialization constants (clSetProgramSpecializationConstant):
// by id, the constant's size in bytes and its bits.
struct SpecConstant {
  uint32_t size = 0;
  uint64_t bits = 0;
};
using SpecConstants = std::map<uint32_t, SpecConstant>;

// Programs created with clCreateProgramWithIL (SPIR-V): clBuildProgram and
// clCompileProgram. The log says so when no SPIR-V translator is installed.
Result buildIL(const std::string &il, const std::string &options,
               const SpecConstants &specConstants = {});
Result compileIL(const std::string &il, const std::string &options,
                 const SpecConstants &specConstants = {});
// The specialization constants a SPIR-V module declares: id -> size in bytes; nullopt
// (and why, in `log`) if the translator cannot read it.
std::optional<std::map<uint32_t, uint32_t>> specConstantSizes(const std::string &il,
                                                              std::string &log);
// True if a SPIR-V translator is installed (CL_DEVICE_IL_VERSION is empty otherwise).
bool spirvAvailable();
// True if the bytes are a SPIR-V module (clCreateProgramWithIL's check).
bool isSpirv(const void *bytes, size_t size);

// clBuildProgram of a program created from a binary: an executable is accepted as is,
// an object or library is linked into an executable.
Result buildFromBinary(const Binary &binary, const std::string &options);

// Checks a binary given to clCreateProgramWithBinary. Returns its kind, or None if it
// is not a FiberCL binary (CL_INVALID_BINARY).
BinaryKind inspect(const uint8_t *bytes, size_t size);

// Version of the binary format: binaries of another version are refused, so it is part
// of CL_DRIVER_VERSION (applications such as hashcat key their kernel caches on it).
uint32_t binaryFormatVersion();

// Kernel table of an executable binary, without compiling it.
std::vector<KernelInfo> kernelsOf(const Binary &executable);

// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE of an executable: bytes of its
// program-scope (and function-scope static) variables in the global address space.
uint64_t globalVariableBytes(const Binary &executable);

// Host functions the JIT-compiled code calls, by symbol name (FIBERCL_HOST_*, printf).
using HostSymbols = std::map<std::string, void *>;

// A loaded executable: machine code for every kernel, alive as long as this object.
class Executable {
public:
  virtual ~Executable() = default;
  virtual const std::vector<KernelInfo> &kernels() const = 0;
  // The work-group function of a kernel, or nullptr if there is no such kernel.
  virtual fcl_work_group_fn entry(const std::string &kernelName) const = 0;
  // The kernel's work-group function compiled for groups of exactly `localSize` work-
  // items (local_size_specialisation.hpp), made at the first call for that size; null
  // when the kernel has no barrier regions or cannot be specialised (the generic
  // entry() runs then). FIBERCL_DEBUG=specialise says which and why.
  virtual fcl_work_group_fn specialisedEntry(const std::string &kernelName,
                                             const uint64_t localSize[3]) const {
    return nullptr;
  }
};

// JIT-compiles an executable binary for this host. On failure returns nullptr and
// sets `error`.
std::unique_ptr<Executable> load(const Binary &executable, const HostSymbols &hostSymbols,
                                 std::string &error);

} // namespace fibercl::compiler
