// The handles of a delegated platform (DESIGN.md, "Delegation"). Every object the
// application gets from a delegated device is one of these wrappers around the
// vendor's own handle: its first field is FiberCL's forwarding dispatch table, so the
// ICD loader sends every call on it to delegate/, never to the vendor directly.
//
// Reference counts are the application's: `refCount` counts clRetain*/clRelease*, and
// when it reaches zero FiberCL drops its one reference on the vendor's object. The
// wrapper's memory lives on while another wrapper still names it (a buffer keeps its
// context answerable through CL_MEM_CONTEXT) or a callback may still receive it.
#pragma once

#include "runtime/object.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace fibercl::delegate {

// A delegated handle's tag (runtime/object.hpp: one list of tags for every handle
// FiberCL gives out): Tag::Delegated<kind>.
using runtime::Tag;

struct Platform;

// Every wrapper starts with the runtime's object header (a handle points there): its
// `dispatch` is the forwarding table (the loader reads it), its `tag` a Delegated one,
// its `refCount` what the application retained.
struct Obj : runtime::ObjectHeader {
  std::atomic<uint32_t> holds; // 1 while refCount > 0, +1 per wrapper or callback naming it
  void *real;                  // the vendor's handle
  Platform *platform;          // the delegated platform it belongs to
  Obj *parents[2];             // held: context, and program / queue / parent buffer

  // The vendor's dispatch table for this object's calls.
  const cl_icd_dispatch &vendor() const { return **static_cast<cl_icd_dispatch *const *>(real); }
};

// A delegated platform: one vendor platform, shown as its own FiberCL platform.
struct Platform : Obj {
  std::string name, vendorName, library;
  std::string shownName;      // "FiberCL -> <name>"
  std::vector<Obj *> devices; // root devices, in the vendor's order
};

struct Device : Obj {
  bool root = false; // clGetDeviceIDs' devices: retain/release do nothing
};
struct Context : Obj {
  std::vector<Obj *> devices;
  std::vector<cl_context_properties> properties; // as the application gave them
};

// A kernel launch, as a report of a command that never completes names it. Fixed
// size: recording one costs an enqueue no allocation.
struct Launch {
  char kernel[64];
  cl_uint dims;
  bool hasLocal;
  size_t global[3], local[3];
  std::string describe() const; // "kernel 'k', global 1024x4, local 64x1"
};

struct Queue : Obj {
  Obj *device;
  bool inOrder = true;
  // The kernel launches since the queue was last seen drained, the last kMaxLaunches
  // of them (no event is kept per launch: that would cost every enqueue).
  static constexpr size_t kMaxLaunches = 8;
  std::mutex mutex;
  Launch launches[kMaxLaunches];
  size_t launchCount = 0; // since last drained; launches[i % kMaxLaunches]
};

struct Mem : Obj {};
struct Sampler : Obj {};
struct Program : Obj {
  std::string source; // as the application gave it (CL_PROGRAM_SOURCE)
};
struct Kernel : Obj {
  std::string name; // for reports
};
struct Event : Obj {};

// The forwarding dispatch table (icd/ hands it in: delegate.hpp, initialise).
const cl_icd_dispatch &forwardingDispatch();

// Makes a wrapper of kind K (type T) for the vendor handle `real` with refCount 1, or
// returns the existing one (then retains it for the application if `retainExisting`).
// Parents are held. Registered so handles in answers can be translated back.
template <class T>
T *wrap(Tag k, void *real, Platform *p, Obj *parent0 = nullptr, Obj *parent1 = nullptr);

// The wrapper for a vendor handle, or nullptr.
Obj *findWrapper(const void *real);
// Is `p` a live wrapper of one of these kinds? For kernel arguments, whose type the
// call does not say: only values that are live wrappers are translated.
Obj *liveWrapper(const void *p, std::initializer_list<Tag> kinds);

// The object behind an application handle, or nullptr if it is not a live wrapper of
// kind `k` (a CPU-device handle, a released one, garbage with luck).
inline Obj *as(const void *handle, Tag k) {
  if (!handle)
    return nullptr;
  auto *o = static_cast<Obj *>(const_cast<void *>(handle));
  if (o->tag.load(std::memory_order_relaxed) != k ||
      o->refCount.load(std::memory_order_relaxed) == 0)
    return nullptr;
  return o;
}
template <class T> T *as(const void *handle, Tag k) { return static_cast<T *>(as(handle, k)); }

// The application's clRetain*/clRelease*.
void appRetain(Obj *o);
void appRelease(Obj *o);
// FiberCL's own holds (a callback in flight).
void hold(Obj *o);
void unhold(Obj *o);

} // namespace fibercl::delegate
