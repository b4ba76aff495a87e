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
  switch (o->tag.load(std::memory_order_relaxed)) {
  case Tag::DelegatedContext:
    d.clReleaseContext(static_cast<cl_context>(o->real));
    break;
  case Tag::DelegatedQueue:
    d.clReleaseCommandQueue(static_cast<cl_command_queue>(o->real));
    break;
  case Tag::DelegatedMem:
    d.clReleaseMemObject(static_cast<cl_mem>(o->real));
    break;
  case Tag::DelegatedProgram:
    d.clReleaseProgram(static_cast<cl_program>(o->real));
    break;
  case Tag::DelegatedKernel:
    d.clReleaseKernel(static_cast<cl_kernel>(o->real));
    break;
  case Tag::DelegatedEvent:
    d.clReleaseEvent(static_cast<cl_event>(o->real));
    break;
  case Tag::DelegatedSampler:
    d.clReleaseSampler(static_cast<cl_sampler>(o->real));
    break;
  case Tag::DelegatedDevice:
    if (d.clReleaseDevice)
      d.clReleaseDevice(static_cast<cl_device_id>(o->real)); // sub-devices only
    break;
  default:
    break;
  }
}

void destroy(Obj *o) {
  Obj *parents[2] = {o->parents[0], o->parents[1]};
  {
    std::unique_lock<std::shared_mutex> lock(registry().mutex);
    registry().live.erase(o);
  }
  Tag k = o->tag.exchange(Tag::Dead);
  switch (k) {
  case Tag::DelegatedContext:
    delete static_cast<Context *>(o);
    break;
  case Tag::DelegatedQueue:
    delete static_cast<Queue *>(o);
    break;
  case Tag::DelegatedMem:
    delete static_cast<Mem *>(o);
    break;
  case Tag::DelegatedProgram:
    delete static_cast<Program *>(o);
    break;
  case Tag::DelegatedKernel:
    delete static_cast<Kernel *>(o);
    break;
  case Tag::DelegatedEvent:
    delete static_cast<Event *>(o);
    break;
  case Tag::DelegatedSampler:
    delete static_cast<Sampler *>(o);
    break;
  case Tag::DelegatedDevice:
    delete static_cast<Device *>(o);
    break;
  default:
    break; // platforms live for the process
  }
  for (Obj *p : parents)
    if (p)
      unhold(p);
}

} // namespace

template <class T> T *wrap(Tag k, void *real, Platform *p, Obj *parent0, Obj *parent1) {
  Registry &r = registry();
  std::unique_lock<std::shared_mutex> lock(r.mutex);
  if (auto it = r.byReal.find(real); it != r.byReal.end())
    return static_cast<T *>(it->second); // made already (a callback got there first)
  T *o = new T();
  o->dispatch = &forwardingDispatch();
  o->tag.store(k, std::memory_order_relaxed);
  o->refCount.store(1, std::memory_order_relaxed);
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

template Platform *wrap<Platform>(Tag, void *, Platform *, Obj *, Obj *);
template Device *wrap<Device>(Tag, void *, Platform *, Obj *, Obj *);
template Context *wrap<Context>(Tag, void *, Platform *, Obj *, Obj *);
template Queue *wrap<Queue>(Tag, void *, Platform *, Obj *, Obj *);
template Mem *wrap<Mem>(Tag, void *, Platform *, Obj *, Obj *);
template Sampler *wrap<Sampler>(Tag, void *, Platform *, Obj *, Obj *);
template Program *wrap<Program>(Tag, void *, Platform *, Obj *, Obj *);
template Kernel *wrap<Kernel>(Tag, void *, Platform *, Obj *, Obj *);
template Event *wrap<Event>(Tag, void *, Platform *, Obj *, Obj *);

Obj *findWrapper(const void *real) {
  if (!real)
    return nullptr;
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  auto it = r.byReal.find(real);
  return it == r.byReal.end() ? nullptr : it->second;
}

Obj *liveWrapper(const void *p, std::initializer_list<Tag> kinds) {
  if (!p)
    return nullptr;
  Registry &r = registry();
  std::shared_lock<std::shared_mutex> lock(r.mutex);
  if (!r.live.count(p))
    return nullptr;
  auto *o = static_cast<Obj *>(const_cast<void *>(p));
  for (Tag k : kinds)
    if (o->tag.load(std::memory_order_relaxed) == k)
      return o;
  return nullptr;
}

void appRetain(Obj *o) { o->refCount.fetch_add(1, std::memory_order_relaxed); }

void appRelease(Obj *o) {
  if (o->refCount.fetch_sub(1, std::memory_order_acq_rel) != 1)
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
