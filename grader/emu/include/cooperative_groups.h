// cooperative_groups on the emulator, with CUDA 13's names and types: the
// thread block, the type-erased thread_group, tiles (static thread_block_tile<N>
// up to a whole block, and tiled_partition(group, n) at run time), coalesced
// groups (coalesced_threads(), binary_partition, labeled_partition) and their
// shuffles, votes and matches. Shuffles move any trivially copyable type of
// up to 32 bytes (CUDA's limit), in 8-byte pieces. cg::reduce and the scans are in cooperative_groups/reduce.h
// and scan.h, as in CUDA, so a program's own `reduce` does not clash with them.
#pragma once
#include <cstring>
#include <type_traits>
#include <vector>

#include "gpulab/emu/cuda_emulation.hpp"
#include "gpulab/emu/group_waits.hpp"
#include "gpulab/emu/runtime_memory.hpp"
#include "gpulab/emu/thread_scope.hpp"

namespace gpulab::emu {
void device_misuse(const char* kind, const char* what, const char* file, int line);  // reports, ends the block
}
#include "gpulab/emu/grid_group.hpp"

namespace cooperative_groups {

namespace details {
constexpr unsigned coalesced_group_id = 1;
constexpr unsigned grid_group_id = 3;
constexpr unsigned thread_block_id = 4;
constexpr unsigned multi_tile_group_id = 5;

inline unsigned laneid() { return gpulab_emu_thread->lane(); }
inline unsigned lanemask_lt() { return (1u << laneid()) - 1u; }
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
inline unsigned popc(unsigned m) { return static_cast<unsigned>(__builtin_popcount(m)); }
// The lane of the `rank`-th member (0-based) of `mask`, or 32 if there is none.
inline unsigned lane_of_rank(unsigned mask, unsigned rank) {
  for (unsigned l = 0; l < 32; ++l) {
    if (mask >> l & 1u) {
      if (rank == 0) return l;
      --rank;
    }
  }
  return 32;
}

// A warp shuffle of any trivially copyable value: 8 bytes per exchange.
template <class T>
inline T shuffle(gpulab::emu::WarpOp op, unsigned mask, const T& value, int arg, int width, const char* file,
                 int line) {
  static_assert(std::is_trivially_copyable_v<T>, "group shuffles move trivially copyable values");
  static_assert(sizeof(T) <= 32, "cooperative groups collectives move values of at most 32 bytes (as in CUDA)");
  unsigned char in[sizeof(T)];
  unsigned char out[sizeof(T)];
  std::memcpy(in, &value, sizeof(T));
  for (size_t at = 0; at < sizeof(T); at += 8) {
    const size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
    unsigned long long word = 0;
    std::memcpy(&word, in + at, n);
    word = gpulab::emu::warp_collective(op, mask, word, arg, width, file, line);
    std::memcpy(out + at, &word, n);
  }
  T result;
  std::memcpy(&result, out, sizeof(T));
  return result;
}

// Tiles larger than a warp exchange values through per-block scratch memory
// and synchronise with a counting barrier per tile.
struct TileBarrier {
  unsigned arrived = 0;
  unsigned long long phase = 0;
};
// In the emulator's own memory (runtime_memory.hpp), not the program's heap.
struct MultiWarpTiles {
  unsigned long long generation = 0;
  std::pmr::vector<TileBarrier> barriers{
      gpulab::emu::runtime_memory()};  // one per tile of 64 or more threads (at most 16 per block)
  std::pmr::vector<unsigned char> scratch{gpulab::emu::runtime_memory()};  // one value per thread of the block
};
inline MultiWarpTiles& multi_warp_tiles() {
  static thread_local MultiWarpTiles tiles;  // a worker runs one block at a time
  if (tiles.generation != gpulab_emu_block->generation) {
    tiles.barriers.assign(5 * 16, TileBarrier{});  // 16 tiles of 64, 8 of 128, ... 1 of 1024
    tiles.generation = gpulab_emu_block->generation;
  }
  return tiles;
}
// Waits until the `expected` threads of tile `index` (of size `size`) arrive.
inline void multi_warp_sync(unsigned size, unsigned index, unsigned expected, const char* file, int line) {
  const unsigned size_class = static_cast<unsigned>(__builtin_ctz(size)) - 6;  // 64 -> 0, ..., 1024 -> 4
  TileBarrier& b = multi_warp_tiles().barriers[size_class * 16 + index % 16];
  const unsigned long long phase = b.phase;
  if (++b.arrived == expected) {
    b.arrived = 0;
    ++b.phase;
    gpulab::emu::group_synchronised(file, line);
    gpulab::emu::wake_parked(&b);
    return;
  }
  while (b.phase == phase) gpulab::emu::park(&b, "thread_block_tile::sync()", file, line);
}
template <class T> inline T* multi_warp_scratch() {
  MultiWarpTiles& tiles = multi_warp_tiles();
  const size_t need = static_cast<size_t>(block_threads()) * sizeof(T);
  if (tiles.scratch.size() < need) tiles.scratch.resize(need);
  return reinterpret_cast<T*>(tiles.scratch.data());
}
}  // namespace details

class thread_group;
class thread_block;
class coalesced_group;
template <unsigned Size, class ParentT = void> class thread_block_tile;
template <unsigned MaxBlockSize = 1024> struct block_tile_memory;
namespace details {
struct group_access;  // builds groups from masks
}

// Any group, its kind decided at run time: a thread block, or (what
// tiled_partition(group, n) returns) a set of lanes of one warp.
class thread_group {
 protected:
  unsigned type_;
  unsigned mask_ = 0;  // lanes of the calling warp in the group (warp-level groups)
  unsigned meta_rank_ = 0;
  unsigned meta_size_ = 1;
  bool tiled_ = false;
  explicit thread_group(unsigned type) : type_(type) {}
  thread_group(unsigned type, unsigned mask, unsigned meta_rank, unsigned meta_size, bool tiled)
      : type_(type), mask_(mask), meta_rank_(meta_rank), meta_size_(meta_size), tiled_(tiled) {}
  friend struct details::group_access;

 public:
  unsigned long long size() const {
    return type_ == details::thread_block_id ? details::block_threads() : details::popc(mask_);
  }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    return type_ == details::thread_block_id ? gpulab_emu_thread->linear
                                             : details::popc(mask_ & details::lanemask_lt());
  }
  void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    if (type_ == details::thread_block_id) {
      __syncthreads(file, line);
    } else {
      __syncwarp(mask_, file, line);
    }
  }
  unsigned get_type() const { return type_; }
};

// grid_group and this_grid() (grid-wide synchronisation in a cooperative
// launch) belong to the block scheduler and are declared with it.

class thread_block : public thread_group {
  friend thread_block this_thread_block();

 protected:
  thread_block() : thread_group(details::thread_block_id) {}

 public:
  static constexpr unsigned _group_id = details::thread_block_id;
  static constexpr cuda::thread_scope thread_scope = cuda::thread_scope_block;
  static void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) { __syncthreads(file, line); }
  static unsigned size() { return details::block_threads(); }
  static unsigned num_threads() { return size(); }
  static unsigned thread_rank() { return gpulab_emu_thread->linear; }
  static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  static dim3 group_dim() { return blockDim; }
  static dim3 dim_threads() { return blockDim; }

  template <unsigned MaxBlockSize> friend thread_block this_thread_block(block_tile_memory<MaxBlockSize>&);
};

inline thread_block this_thread_block() { return thread_block(); }

// Scratch for tiles of more than 32 threads. GPUs of compute capability 8.0
// and later (the H100 included) do not need it; it is accepted and unused.
template <unsigned MaxBlockSize> struct alignas(16) block_tile_memory {
  static_assert(MaxBlockSize >= 1 && MaxBlockSize <= 1024, "block_tile_memory: a block has at most 1024 threads");
  unsigned char unused_[16];
};
template <unsigned MaxBlockSize> inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return thread_block();
}

// The lanes of a warp that are in a group, numbered in lane order.
class coalesced_group : public thread_group {
  friend struct details::group_access;

 protected:
  explicit coalesced_group(unsigned mask) : thread_group(details::coalesced_group_id, mask, 0, 1, false) {}
  template <class T> T shfl_from_lane(const T& v, unsigned lane, const char* file, int line) const {
    return details::shuffle(gpulab::emu::WarpOp::shfl_idx, mask_, v, static_cast<int>(lane), 32, file, line);
  }

 public:
  static constexpr unsigned _group_id = details::coalesced_group_id;
  static constexpr cuda::thread_scope thread_scope = cuda::thread_scope_block;
  unsigned get_mask() const { return mask_; }
  unsigned num_threads() const { return details::popc(mask_); }
  unsigned size() const { return num_threads(); }
  unsigned thread_rank() const { return details::popc(mask_ & details::lanemask_lt()); }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }
  void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncwarp(mask_, file, line); }

  template <class T> T shfl(T v, int src_rank, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    const unsigned lane = details::lane_of_rank(mask_, static_cast<unsigned>(src_rank) % size());
    return shfl_from_lane(v, lane, file, line);
  }
  template <class T>
  T shfl_down(T v, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    const unsigned r = thread_rank() + delta;
    const unsigned lane = r < size() ? details::lane_of_rank(mask_, r) : details::laneid();
    return shfl_from_lane(v, lane, file, line);
  }
  template <class T>
  T shfl_up(T v, unsigned delta, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    const unsigned r = thread_rank();
    const unsigned lane = r >= delta ? details::lane_of_rank(mask_, r - delta) : details::laneid();
    return shfl_from_lane(v, lane, file, line);
  }
  int any(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __any_sync(mask_, p, file, line);
  }
  int all(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __all_sync(mask_, p, file, line);
  }
  // Bit i is set when the member of rank i has a true predicate.
  unsigned ballot(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    const unsigned lanes = __ballot_sync(mask_, p, file, line);
    unsigned packed = 0;
    for (unsigned l = 0, r = 0; l < 32; ++l) {
      if (!(mask_ >> l & 1u)) continue;
      if (lanes >> l & 1u) packed |= 1u << r;
      ++r;
    }
    return packed;
  }
  template <class T> unsigned match_any(T v, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return pack(__match_any_sync(mask_, v, file, line));
  }
  template <class T>
  unsigned match_all(T v, int& pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    const unsigned same = __match_any_sync(mask_, v, file, line);
    pred = same == mask_;
    return pred ? pack(mask_) : 0u;
  }

 private:
  unsigned pack(unsigned lanes) const {
    unsigned packed = 0;
    for (unsigned l = 0, r = 0; l < 32; ++l) {
      if (!(mask_ >> l & 1u)) continue;
      if (lanes >> l & 1u) packed |= 1u << r;
      ++r;
    }
    return packed;
  }
};

namespace details {
struct group_access {
  static coalesced_group coalesced(unsigned mask, unsigned meta_rank, unsigned meta_size, bool tiled) {
    coalesced_group g(mask);
    g.meta_rank_ = meta_rank;
    g.meta_size_ = meta_size;
    g.tiled_ = tiled;
    return g;
  }
  static thread_group tile(unsigned mask, unsigned meta_rank, unsigned meta_size) {
    return thread_group(coalesced_group_id, mask, meta_rank, meta_size, true);
  }
  static unsigned mask(const thread_group& g) { return g.mask_; }
  static bool tiled(const thread_group& g) { return g.tiled_; }
};
}  // namespace details

// The lanes of the calling warp that reach this call together (the active
// lanes of a GPU): a lane waits until every other live lane of its warp has
// arrived here or waits somewhere else.
inline coalesced_group coalesced_threads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return details::group_access::coalesced(gpulab::emu::coalesced_lanes(file, line), 0, 1, false);
}

// Static tiles of up to 32 threads: the lanes [base, base + Size) of a warp.
template <unsigned Size> class thread_block_tile_base : public thread_group {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0, "warp tiles have 1, 2, 4, 8, 16 or 32 threads");

 protected:
  thread_block_tile_base(unsigned meta_rank, unsigned meta_size)
      : thread_group(details::coalesced_group_id, build_mask(), meta_rank, meta_size, true) {}
  static unsigned build_mask() {
    const unsigned base = details::laneid() / Size * Size;
    return (Size == 32 ? 0xffffffffu : ((1u << Size) - 1u)) << base;
  }
  static unsigned base_lane() { return details::laneid() / Size * Size; }

 public:
  static constexpr unsigned _group_id = details::coalesced_group_id;
  static constexpr unsigned numThreads = Size;
  static constexpr cuda::thread_scope thread_scope = cuda::thread_scope_block;
  unsigned get_mask() const { return build_mask(); }
  unsigned mask() const { return build_mask(); }
  static void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    __syncwarp(build_mask(), file, line);
  }
  static constexpr unsigned long long size() { return Size; }
  static constexpr unsigned num_threads() { return Size; }
  static unsigned thread_rank() { return details::laneid() % Size; }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }

  template <class T> T shfl(T v, int src, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return details::shuffle(gpulab::emu::WarpOp::shfl_idx, build_mask(), v, src, Size, file, line);
  }
  template <class T>
  T shfl_down(T v, unsigned d, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return details::shuffle(gpulab::emu::WarpOp::shfl_down, build_mask(), v, static_cast<int>(d), Size, file, line);
  }
  template <class T>
  T shfl_up(T v, unsigned d, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return details::shuffle(gpulab::emu::WarpOp::shfl_up, build_mask(), v, static_cast<int>(d), Size, file, line);
  }
  template <class T>
  T shfl_xor(T v, unsigned m, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return details::shuffle(gpulab::emu::WarpOp::shfl_xor, build_mask(), v, static_cast<int>(m), Size, file, line);
  }
  int any(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __any_sync(build_mask(), p, file, line);
  }
  int all(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __all_sync(build_mask(), p, file, line);
  }
  unsigned ballot(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __ballot_sync(build_mask(), p, file, line) >> base_lane();
  }
  template <class T> unsigned match_any(T v, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __match_any_sync(build_mask(), v, file, line) >> base_lane();
  }
  template <class T>
  unsigned match_all(T v, int& pred, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    const unsigned same = __match_any_sync(build_mask(), v, file, line);
    pred = same == build_mask();
    return pred ? build_mask() >> base_lane() : 0u;
  }
};

// Static tiles of 64 to 1024 threads (whole warps): sync, shfl, any and all, as in CUDA.
template <unsigned Size> class multi_warp_tile_base {
  static_assert(Size <= 1024 && (Size & (Size - 1)) == 0, "tiles have a power of two of threads, at most 1024");

 protected:
  unsigned meta_rank_;
  unsigned meta_size_;
  multi_warp_tile_base(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {}
  static unsigned first_thread() { return gpulab_emu_thread->linear / Size * Size; }
  static unsigned members() {
    const unsigned first = first_thread();
    const unsigned n = details::block_threads();
    return n - first < Size ? n - first : Size;
  }
  static void barrier(const char* file, int line) {
    details::multi_warp_sync(Size, gpulab_emu_thread->linear / Size, members(), file, line);
  }
  // Every member deposits `v`; each then reads what `pick` wants from the
  // tile's values (a pointer to them, indexed by rank).
  template <class T, class Pick> static auto exchange(const T& v, Pick pick, const char* file, int line) {
    std::memcpy(static_cast<void*>(details::multi_warp_scratch<T>() + first_thread() + thread_rank()), &v, sizeof(T));
    barrier(file, line);
    // Read after the barrier: another tile may have grown the scratch meanwhile.
    const T* values = details::multi_warp_scratch<T>() + first_thread();
    auto result = pick(values, members());
    barrier(file, line);
    return result;
  }

 public:
  static constexpr unsigned _group_id = details::multi_tile_group_id;
  static constexpr unsigned numThreads = Size;
  static constexpr cuda::thread_scope thread_scope = cuda::thread_scope_block;
  static void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) { barrier(file, line); }
  static constexpr unsigned long long size() { return Size; }
  static constexpr unsigned num_threads() { return Size; }
  static unsigned thread_rank() { return gpulab_emu_thread->linear % Size; }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }

  template <class T> T shfl(T v, unsigned src, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    static_assert(std::is_trivially_copyable_v<T>, "group shuffles move trivially copyable values");
    static_assert(sizeof(T) <= 32, "cooperative groups collectives move values of at most 32 bytes (as in CUDA)");
    return exchange(
        v, [src](const T* values, unsigned) { return values[src % Size]; }, file, line);
  }
  int any(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return exchange(
        p != 0,
        [](const bool* values, unsigned n) {
          int r = 0;
          for (unsigned i = 0; i < n; ++i) r |= values[i];
          return r;
        },
        file, line);
  }
  int all(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return exchange(
        p != 0,
        [](const bool* values, unsigned n) {
          int r = 1;
          for (unsigned i = 0; i < n; ++i) r &= values[i];
          return r;
        },
        file, line);
  }
  // For cg::reduce and the scans: every member gets pick(values of the tile, members).
  template <class T, class Pick> auto gather(const T& v, Pick pick, const char* file, int line) const {
    return exchange(v, pick, file, line);
  }
};

namespace details {
template <unsigned Size>
using tile_base = std::conditional_t<(Size <= 32), thread_block_tile_base<Size>, multi_warp_tile_base<Size>>;

// meta_group_rank/size of a tile of `Size` cut from `parent`.
inline unsigned parent_rank(const thread_block&) { return gpulab_emu_thread->linear; }
inline unsigned parent_size(const thread_block&) { return block_threads(); }
template <unsigned P, class G> unsigned parent_rank(const thread_block_tile<P, G>&) {
  return gpulab_emu_thread->linear % P;
}
template <unsigned P, class G> unsigned parent_size(const thread_block_tile<P, G>&) { return P; }
template <class ParentT> struct parent_threads : std::integral_constant<unsigned, 0> {};  // a block: any size
template <unsigned P, class G> struct parent_threads<thread_block_tile<P, G>> : std::integral_constant<unsigned, P> {};
}  // namespace details

// thread_block_tile<Size> (ParentT = void) is what every tile of that size converts to.
template <unsigned Size> class thread_block_tile<Size, void> : public details::tile_base<Size> {
  template <unsigned, class> friend class thread_block_tile;

 protected:
  thread_block_tile(unsigned meta_rank, unsigned meta_size) : details::tile_base<Size>(meta_rank, meta_size) {}
};

template <unsigned Size, class ParentT> class thread_block_tile : public thread_block_tile<Size, void> {
  template <unsigned S, class P> friend thread_block_tile<S, P> tiled_partition(const P& parent);
  friend thread_block_tile<1, void> this_thread();

 protected:
  explicit thread_block_tile(const ParentT& parent)
      : thread_block_tile<Size, void>(details::parent_rank(parent) / Size,
                                      (details::parent_size(parent) + Size - 1) / Size) {}
};

template <unsigned Size, class ParentT> inline thread_block_tile<Size, ParentT> tiled_partition(const ParentT& parent) {
  static_assert(details::parent_threads<ParentT>::value == 0 || Size < details::parent_threads<ParentT>::value,
                "tiled_partition<N>(tile): N must be smaller than the tile's size");
  return thread_block_tile<Size, ParentT>(parent);
}

// The calling thread alone.
inline thread_block_tile<1, void> this_thread() {
  return thread_block_tile<1, thread_block_tile<1, thread_block>>(tiled_partition<1>(this_thread_block()));
}

// tiled_partition(parent, n) at run time: n a power of two of at most 32, as in CUDA.
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tilesz,
                                       const char* file = __builtin_FILE(), int line = __builtin_LINE());
inline thread_group tiled_partition(const thread_group& parent, unsigned tilesz, const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
  if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0) {
    gpulab::emu::device_misuse("cooperative-groups",
                               "tiled_partition(group, n): n must be 1, 2, 4, 8, 16 or 32 (use tiled_partition<N> "
                               "for larger tiles)",
                               file, line);
  }
  if (parent.get_type() == details::coalesced_group_id) {
    return tiled_partition(static_cast<const coalesced_group&>(parent), tilesz, file, line);
  }
  const unsigned rank = gpulab_emu_thread->linear;
  const unsigned base = rank & ~(tilesz - 1);
  const unsigned n = details::block_threads();
  const unsigned length = n - base < tilesz ? n - base : tilesz;
  const unsigned mask = (0xffffffffu >> (32 - length)) << (details::laneid() & ~(tilesz - 1));
  return details::group_access::tile(mask, rank / tilesz, (n + tilesz - 1) / tilesz);
}
inline thread_group tiled_partition(const thread_block& parent, unsigned tilesz, const char* file = __builtin_FILE(),
                                    int line = __builtin_LINE()) {
  return tiled_partition(static_cast<const thread_group&>(parent), tilesz, file, line);
}
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tilesz, const char* file, int line) {
  if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0) {
    gpulab::emu::device_misuse("cooperative-groups", "tiled_partition(group, n): n must be 1, 2, 4, 8, 16 or 32", file,
                               line);
  }
  if (parent.size() <= tilesz) return parent;
  const unsigned rank = parent.thread_rank();
  unsigned mask = 0;
  const bool tiled = details::group_access::tiled(parent);
  if (tiled) {
    const unsigned base = rank & ~(tilesz - 1);
    const unsigned length = parent.size() - base < tilesz ? parent.size() - base : tilesz;
    mask = (0xffffffffu >> (32 - length)) << (details::laneid() & ~(tilesz - 1));
  } else {
    // Members rank / tilesz * tilesz onwards, tilesz of them, in lane order.
    const unsigned first = rank / tilesz * tilesz;
    for (unsigned l = 0, r = 0; l < 32; ++l) {
      if (!(parent.get_mask() >> l & 1u)) continue;
      if (r >= first && r < first + tilesz) mask |= 1u << l;
      ++r;
    }
  }
  return details::group_access::coalesced(mask, rank / tilesz, (parent.size() + tilesz - 1) / tilesz, tiled);
}

namespace details {
template <class Group> inline unsigned warp_mask_of(const Group& g) { return g.get_mask(); }
}  // namespace details

// Splits a warp-level group in two: the members whose predicate is true, and the others.
template <class Group>
inline coalesced_group binary_partition(const Group& group, bool pred, const char* file = __builtin_FILE(),
                                        int line = __builtin_LINE()) {
  static_assert(std::is_base_of_v<coalesced_group, Group> || Group::numThreads <= 32,
                "binary_partition is available only for tiles of at most 32 threads");
  const unsigned mask = details::warp_mask_of(group);
  const unsigned set = __ballot_sync(mask, pred, file, line);
  if (set == mask || set == 0) return details::group_access::coalesced(mask, 0, 1, false);
  return details::group_access::coalesced(mask & (pred ? set : ~set), pred ? 1u : 0u, 2u, false);
}

// Splits a warp-level group by label: the members with equal labels form a group.
template <class Label, class Group>
inline coalesced_group labeled_partition(const Group& group, Label label, const char* file = __builtin_FILE(),
                                         int line = __builtin_LINE()) {
  static_assert(std::is_integral_v<Label> || std::is_pointer_v<Label>,
                "labeled_partition: the label must be an integral or pointer type");
  const unsigned mask = details::warp_mask_of(group);
  const unsigned same = __match_any_sync(mask, label, file, line);
  const unsigned leader = static_cast<unsigned>(__builtin_ctz(same));
  const unsigned leaders = __ballot_sync(mask, details::laneid() == leader, file, line);
  return details::group_access::coalesced(same, details::popc(leaders & ((1u << leader) - 1u)), details::popc(leaders),
                                          false);
}

template <class Group>
inline void sync(const Group& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  g.sync(file, line);
}
template <class Group> inline auto thread_rank(const Group& g) -> decltype(g.thread_rank()) { return g.thread_rank(); }
template <class Group> inline auto group_size(const Group& g) -> decltype(g.num_threads()) { return g.num_threads(); }

}  // namespace cooperative_groups
