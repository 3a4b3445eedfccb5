// An allocator that leaves the elements a container adds without a value uninitialised
// (`resize(n)`), for buffers that are overwritten whole right away: a 64 MB dataset read from
// its file need not be zero-filled first. Elements given a value are constructed as usual.
#pragma once
#include <memory>
#include <new>
#include <utility>

namespace gpulab {

template <class T, class Base = std::allocator<T>> class UninitializedAllocator : public Base {
  using Traits = std::allocator_traits<Base>;

 public:
  template <class U> struct rebind {
    using other = UninitializedAllocator<U, typename Traits::template rebind_alloc<U>>;
  };
  using Base::Base;
  UninitializedAllocator() = default;
  template <class U, class B>
  UninitializedAllocator(const UninitializedAllocator<U, B>& other) noexcept : Base(other) {}

  // Default-initialisation: nothing for trivial types.
  template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args> void construct(U* p, Args&&... args) {
    Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
  }
};

}  // namespace gpulab
