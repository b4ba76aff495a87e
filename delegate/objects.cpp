// Wrapper lifetime and the vendor-handle registry (objects.hpp).
#include "delegate/objects.hpp"

#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>

namespace fibercl::delegate {
namespace {

struct Registry {
  std::shared_mutex mutex;
  std::unordered_map<const void *, Obj *> byReal; // vendor handle -> wrapper
  std::unordered_set<const void *> live;          // every wrapper not yet deleted
};

Registry &registry() {
  static Registry *r = new Registry; // never destroyed: callbacks may run at exit
  return *r;
}

// Drops FiberCL's reference on the vendor object, once the application has none.
void releaseVendor(Obj *o) {
  const cl_icd_dispatch &d = o->vendor();
  switch (o->kind.load(std::memory_order_relaxed)) {
  case Kind::Context: d.clReleaseContext(static_cast<cl_context>(o->real)); break;
  case Kind::Queue: d.clReleaseCommandQueue(static_cast<cl_command_queue>(o->real)); break;
  case Kind::Mem: d.clReleaseMemObject(static_cast<cl_mem>(o->real)); break;
  case Kind::Program: d.clReleaseProgram(static_cast<cl_program>(o->real)); break;
  case Kind::Kernel: d.clReleaseKernel(static_cast<cl_kernel>(o->real)); break;
  case Kind::Event: d.clReleaseEvent(static_cast<cl_event>(o->real)); break;
  case Kind::Sampler: d.clReleaseSampler(static_cast<cl_sampler>(o->real)); break;
  case Kind::Device:
    if (d.clReleaseDevice)
      d.clReleaseDevice(static_cast<cl_device_id>(o->real)); // sub-devices only
    break;
  default: break;
  }
}

void destroy(Obj *o) {
  Obj *parents[2] = {o->parents[0], o->parents[1]};
  {
    std::unique_lock<std::shared_mutex> lock(registry().mutex);
    registry().live.erase(o);
  }
  Kind k = o->kind.exchange(Kind::Dead);
  switch (k) {
  case Kind::Context: delete static_cast<Context *>(o); break;
  case Kind::Queue: delete static_cast<Queue *>(o); break;
  case Kind::Mem: delete static_cast<Mem *>(o); break;
  case Kind::Program: delete static_cast<Program *>(o); break;
  case Kind::Kernel: delete static_cast<Kernel *>(o); break;
  case Kind::Event: delete static_cast<Event *>(o); break;
  case Kind::Sampler: delete static_cast<Sampler *>(o); break;
  case Kind::Device: delete static_cast<Device *>(o); break;
  default: break; // platforms live for the process
  }
  for (Obj *p : parents)
    if (p)
      unhold(p);
}

} // namespace

template <class T>
T *wrap(Kind k, void *real, Platform *p, Obj *parent0, Obj *parent1) {
  Registry &r = registry();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  if (auto it = r.byReal.find(real); it != r.byReal.end())
    return static_cast<T *>(it->second); // made already (a callback got there first)
  T *o = new T();
  o->dispatch = &forwardingDispatch();
  o->kind.store(k, std::memory_order_relaxed);
  o->appRefs.store(1, std::memory_order_relaxed);
  o->holds.store(1, std::memory_order_relaxed);
  o->real = real;
  o->platform = p;
  o->parents[0] = parent0;
  o->parents[1] = parent1;
  for (Obj *parent : {parent0, parent1})
    if (parent)
      parent->holds.fetch_add(1, std::memory_order_relaxed);
  r.byReal.emplace(real, o);
  r.live.insert(o);
  return o;
}

template Platform *wrap<Platform>(Kind, void *, Platform *, Obj *, Obj *);
template Device *wrap<Device>(Kind, void *, Platform *, Obj *, Obj *);
template Context *wrap<Context>(Kind, void *, Platform *, Obj *, Obj *);
template Queue *wrap<Queue>(Kind, void *, Platform *, Obj *, Obj *);
template Mem *wrap<Mem>(Kind, void *, Platform *, Obj *, Obj *);
template Sampler *wrap<Sampler>(Kind, void *, Platform *, Obj *, Obj *);
template Program *wrap<Program>(Kind, void *, Platform *, Obj *, Obj *);
template Kernel *wrap<Kernel>(Kind, void *, Platform *, Obj *, Obj *);
template Event *wrap<Event>(Kind, void *, Platform *, Obj *, Obj *);

Obj *findWrapper(const void *real) {
  if (!real)
    return nullptr;
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.byReal.find(real);
  return it == r.byReal.end() ? nullptr : it->second;
}

Obj *liveWrapper(const void *p, std::initializer_list<Kind> kinds) {
  if (!p)
    return nullptr;
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  if (!r.live.count(p))
    return nullptr;
  auto *o = static_cast<Obj *>(const_cast<void *>(p));
  for (Kind k : kinds)
    if (o->kind.load(std::memory_order_relaxed) == k)
      return o;
  return nullptr;
}

void appRetain(Obj *o) { o->appRefs.fetch_add(1, std::memory_order_relaxed); }

void appRelease(Obj *o) {
  if (o->appRefs.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  {
    std::unique_lock<std::shared_mutex> lock(registry().mutex);
    auto it = registry().byReal.find(o->real);
    if (it != registry().byReal.end() && it->second == o)
      registry().byReal.erase(it); // the vendor may reuse the address from now on
  }
  releaseVendor(o);
  unhold(o);
}

void hold(Obj *o) { o->holds.fetch_add(1, std::memory_order_relaxed); }

void unhold(Obj *o) {
  if (o->holds.fetch_sub(1, std::memory_order_acq_rel) == 1)
    destroy(o);
}

} // namespace fibercl::delegate
