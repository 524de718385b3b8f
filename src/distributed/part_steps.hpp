// The steps of the distributed product that run inside one part, on its own memory
// (four_step_product.hpp): everything but the transforms and pointwise products (the public
// NTT on the part's context) and the moves between parts (the Communicator). CPU parts run
// them as host loops (HostPartSteps), CUDA parts as kernels on the part's stream
// (make_cuda_part_steps, src/cuda/distributed_part_steps.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "mpgpu/context.hpp"
#include "mpgpu/field/prime_field64.cuh"

namespace mpgpu::distributed {

/// Words of a buffer at offset + i row_stride + j col_stride.
struct Strided {
  std::size_t offset = 0, row_stride = 0, col_stride = 0;
};

/// A rows x columns rectangle of words copied from `from` (in one buffer) to `to` (in another).
/// The rearrangements around the all-to-alls are a few of these a pair of parts.
struct Rect {
  std::size_t rows = 0, columns = 0;
  Strided from, to;
};

/// The order of w minus one, for w a root of unity of power-of-two order (mod f.p).
inline std::uint64_t root_order_mask(const field::PrimeField64& f, std::uint64_t w) {
  std::uint64_t order = 1;
  for (std::uint64_t v = w; v != 1; v = f.mul(v, v)) order <<= 1;
  return order - 1;
}

/// Word i of a twiddle table (PartSteps::twiddles): w^((first + i / n2) (i mod n2)), the
/// exponent reduced by the order of w (order_mask + 1). j1 and k2 are below 2^32, so their
/// product does not wrap. The same code on the host and in the CUDA kernel.
MPGPU_HD std::uint64_t twiddle_word(const field::PrimeField64& f, std::uint64_t w, std::uint64_t order_mask,
                                    std::size_t first, std::size_t n2, std::size_t i) {
  return f.pow(w, (static_cast<std::uint64_t>(first + i / n2) * (i % n2)) & order_mask);
}

/// A rectangle a tiled transpose takes (CUDA parts): read contiguous along j and written
/// contiguous along i (along_j), or the other way round (along_i); neither for the others.
inline bool transposes_along_j(const Rect& r) {
  return r.from.col_stride == 1 && r.to.row_stride == 1 && r.to.col_stride != 1;
}
inline bool transposes_along_i(const Rect& r) {
  return r.from.row_stride == 1 && r.to.col_stride == 1 && r.from.col_stride != 1;
}

/// The word (i, j) that thread (tx, k) of a 32 x 32 tile at (i0, j0) reads into tile[k][tx]
/// (reading) or writes from tile[tx][k] (not reading): along j it reads row i0 + k, column
/// j0 + tx and writes (i0 + tx, j0 + k); along i the other way round. The same code in the
/// CUDA kernel and in the CPU test that emulates it.
MPGPU_HD void tile_word(bool along_j, bool reading, std::size_t i0, std::size_t j0, unsigned tx, unsigned k,
                        std::size_t& i, std::size_t& j) {
  const bool k_is_row = along_j == reading;
  i = i0 + (k_is_row ? k : tx);
  j = j0 + (k_is_row ? tx : k);
}

/// Digit j of column c mod p (PartSteps::reduce): its d limbs at src[(c d + s) n2 + j], Horner
/// from the top limb with radix = 2^64 mod p (each step below p 2^64 + 2^64 < 2^127). The same
/// code on the host and in the CUDA kernel.
MPGPU_HD std::uint64_t digit_residue(const std::uint64_t* src, std::size_t c, std::size_t j, std::size_t n2,
                                     std::size_t d, std::uint64_t p, std::uint64_t radix) {
  unsigned __int128 v = 0;
  for (std::size_t s = d; s-- > 0;) v = v % p * radix + src[(c * d + s) * n2 + j];
  return static_cast<std::uint64_t>(v % p);
}

/// Limb m (m < n d + d + 1) of the sum over k < n of c_k 2^(64 d k), before the carries of
/// more than two bits: the at most three words that land on it (coefficient k = m / d - back,
/// back < 3, at its word m - k d <= 2 d), summed below 3 2^64. Word t of coefficient k is at
/// c[t n + k]. The CUDA parts' crt_sum sums with it; a CPU test checks it against the host's.
MPGPU_HD unsigned __int128 column_word(const std::uint64_t* c, std::size_t n, std::size_t d, std::size_t m) {
  unsigned __int128 t = 0;
  for (std::size_t back = 0; back < 3 && back <= m / d; ++back) {
    const std::size_t k = m / d - back, word = m - k * d;
    if (k < n && word <= 2 * d) t += c[word * n + k];
  }
  return t;
}

class PartSteps {
 public:
  virtual ~PartSteps() = default;
  /// `words` zeroed words of part g's memory, owned by this object until release() or its
  /// destruction.
  virtual std::uint64_t* allocate(std::size_t g, std::size_t words) = 0;
  /// Gives back a buffer of allocate(), after the work queued on part g that uses it (CUDA
  /// parts: stream-ordered).
  virtual void release(std::size_t g, std::uint64_t* p) = 0;
  /// Every rectangle's words from src to dst (dst and src do not overlap; the rectangles'
  /// destinations do not either).
  virtual void copy_rects(std::size_t g, std::uint64_t* dst, const std::uint64_t* src, const std::vector<Rect>& rects) = 0;
  /// dst[c n2 + k2] = w^((first + c) k2) mod p for c < columns, k2 < n2: the four-step
  /// transform's twiddles for the columns [first, first + columns).
  virtual void twiddles(std::size_t g, std::uint64_t* dst, std::size_t first, std::size_t columns, std::size_t n2,
                        std::uint64_t w, std::uint64_t p) = 0;
  /// out[i] = a[i] b[i] mod p, i < n, for residues below p (out may be a or b). Unlike the
  /// public ntt_pointwise_mul it does not check its inputs, whose check synchronizes the part's
  /// stream (and so would keep the parts from running at once).
  virtual void pointwise_mul(std::size_t g, std::uint64_t* out, const std::uint64_t* a, const std::uint64_t* b,
                             std::size_t n, std::uint64_t p) = 0;
  /// The digits of `columns` columns of n2 digits of d limbs mod p: dst[c n2 + j] = (sum over
  /// s < d of src[(c d + s) n2 + j] 2^(64 s)) mod p (the limbs of a digit lie n2 words apart).
  virtual void reduce(std::size_t g, std::uint64_t* dst, const std::uint64_t* src, std::size_t columns,
                      std::size_t n2, std::size_t d, std::uint64_t p) = 0;
  /// acc[0, n d + d + 1) = sum over k < n of c_k 2^(64 d k), where c_k < 2^(64 (2 d + 1)) is
  /// Garner's value of the residues r[0][k], ..., r[P-1][k] mod the first P = r.size() primes
  /// of field::ntt_primes62 (ntt::CrtMany; P = four_step_primes(d)).
  virtual void crt_sum(std::size_t g, std::uint64_t* acc, const std::vector<const std::uint64_t*>& r, std::size_t n,
                       std::size_t d) = 0;
  /// acc[0, n) += in[0, m) (n >= m, `in` in part g's memory); returns the carry out of the
  /// n limbs and whether they are all ones afterwards. Synchronous.
  virtual std::pair<bool, bool> add_incoming(std::size_t g, std::uint64_t* acc, std::size_t n,
                                             const std::uint64_t* in, std::size_t m) = 0;
  /// acc[0, n) += 1, the carry out dropped.
  virtual void add_one(std::size_t g, std::uint64_t* acc, std::size_t n) = 0;
  virtual void copy(std::size_t g, std::uint64_t* dst, const std::uint64_t* src, std::size_t n) = 0;
  /// Part g's memory to the host and back; synchronous.
  virtual void to_host(std::size_t g, std::uint64_t* host, const std::uint64_t* src, std::size_t n) = 0;
  virtual void from_host(std::size_t g, std::uint64_t* dst, const std::uint64_t* host, std::size_t n) = 0;
};

/// CPU parts: host memory, host loops.
std::unique_ptr<PartSteps> make_host_part_steps(std::size_t parts);

/// Choices of the CUDA parts' steps, for A/B measurements (bench/distributed_product_bench).
struct CudaPartStepsOptions {
  /// Transposing rectangles through shared-memory tiles (both sides coalesced), else the
  /// plain strided copy.
  bool tiled_transposes = true;
};

/// CUDA parts (one context a part): device memory, kernels on each part's stream. In a build
/// without CUDA it throws BackendUnavailable.
std::unique_ptr<PartSteps> make_cuda_part_steps(const std::vector<Context>& parts,
                                                CudaPartStepsOptions options = {});

}  // namespace mpgpu::distributed
