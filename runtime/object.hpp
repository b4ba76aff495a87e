// The header every OpenCL object starts with (ICD dispatch pointer, type tag,
// reference count), handle <-> object conversion, and the Ref<T> smart handle.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace fibercl::runtime {

// What kind of object a handle points to. A destroyed object's tag is cleared so a
// dangling handle is (most of the time) reported instead of trusted.
enum class Tag : uint32_t {
  Dead = 0,
  Platform = 0x46434c01,
  Device,
  Context,
  Queue,
  Mem,
  Program,
  Kernel,
  Event,
  Sampler,
  // The handles of a delegated platform (delegate/objects.hpp): the same kinds of
  // object, told apart so that neither the runtime's entry points nor delegation's
  // take the other's handle for their own.
  DelegatedPlatform = 0x46574401,
  DelegatedDevice,
  DelegatedContext,
  DelegatedQueue,
  DelegatedMem,
  DelegatedProgram,
  DelegatedKernel,
  DelegatedEvent,
  DelegatedSampler,
};

// The dispatch table all objects start with. The ICD layer owns it and hands it in
// once, when the library is loaded, before any call (the runtime does not depend on
// the ICD layer).
void installDispatch(const cl_icd_dispatch &table);
const cl_icd_dispatch *objectDispatch();

// The standard-layout prefix of every object: an OpenCL handle points here, and the
// ICD loader reads `dispatch` through it.
struct ObjectHeader {
  const cl_icd_dispatch *dispatch;
  std::atomic<Tag> tag;
  std::atomic<uint32_t> refCount;
};
static_assert(std::is_standard_layout_v<ObjectHeader>,
              "the ICD loader reads the dispatch pointer at offset 0");
static_assert(offsetof(ObjectHeader, dispatch) == 0);

// Base of every object of type T, whose OpenCL handle type is H. T declares:
//   static constexpr Tag kTag;            its tag
//   static constexpr cl_int kInvalidError; e.g. CL_INVALID_CONTEXT
template <class T, class H> class Object : public ObjectHeader {
public:
  Object() {
    dispatch = objectDispatch();
    tag.store(T::kTag, std::memory_order_relaxed);
    refCount.store(1, std::memory_order_relaxed);
  }
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;
  ~Object() { tag.store(Tag::Dead, std::memory_order_relaxed); }

  void retain() { refCount.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refCount.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete static_cast<T *>(this);
  }
  uint32_t refs() const { return refCount.load(std::memory_order_relaxed); }

  using Handle = H;

  H handle() { return reinterpret_cast<H>(static_cast<ObjectHeader *>(this)); }

  // The object behind a handle, or nullptr if the handle is NULL or not a live T.
  static T *fromHandle(H h) {
    if (!h)
      return nullptr;
    auto *header = reinterpret_cast<ObjectHeader *>(h);
    if (header->tag.load(std::memory_order_relaxed) != T::kTag)
      return nullptr;
    return static_cast<T *>(static_cast<Object *>(header));
  }
};

// A counted reference. Construction from a raw pointer adopts a new reference
// (`Ref<T>::adopt`) or retains (`Ref<T>(p)`); copies retain, destruction releases.
template <class T> class Ref {
public:
  Ref() = default;
  Ref(T *p) : p_(p) {
    if (p_)
      p_->retain();
  }
  Ref(T &p) : Ref(&p) {}
  static Ref adopt(T *p) {
    Ref r;
    r.p_ = p;
    return r;
  }
  Ref(const Ref &o) : Ref(o.p_) {}
  Ref(Ref &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref &operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_)
      p_->release();
  }
  void reset() { Ref().swap(*this); }
  void swap(Ref &o) noexcept { std::swap(p_, o.p_); }
  // Gives up ownership without releasing (the caller now owns one reference).
  T *detach() { return std::exchange(p_, nullptr); }

  T *get() const { return p_; }
  T *operator->() const { return p_; }
  T &operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const Ref &o) const { return p_ == o.p_; }
  bool operator!=(const Ref &o) const { return p_ != o.p_; }

private:
  T *p_ = nullptr;
};

// Creates a T holding one reference, owned by the returned Ref.
template <class T, class... A> Ref<T> make(A &&...args) {
  return Ref<T>::adopt(new T(std::forward<A>(args)...));
}

} // namespace fibercl::runtime
