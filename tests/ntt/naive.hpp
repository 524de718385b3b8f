// Reference arithmetic for the NTT tests, independent of mpgpu's fields:
// products reduced with unsigned __int128 `%`, the O(n^2) DFT by its
// definition, and schoolbook (acyclic and cyclic) products.
#pragma once

#include <cstdint>
#include <vector>

namespace mpgpu_test {

inline std::uint64_t mulmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}
inline std::uint64_t addmod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) + b) % p);
}
inline std::uint64_t powmod(std::uint64_t a, std::uint64_t e, std::uint64_t p) {
  std::uint64_t r = 1 % p;
  for (a %= p; e; e >>= 1, a = mulmod(a, a, p))
    if (e & 1) r = mulmod(r, a, p);
  return r;
}

/// X[k] = sum_j x[j] * w^(j*k) mod p.
template <class Word>
std::vector<Word> naive_dft(const std::vector<Word>& x, std::uint64_t w, std::uint64_t p) {
  const std::size_t n = x.size();
  std::vector<Word> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t wk = powmod(w, k, p);
    std::uint64_t acc = 0, wjk = 1;
    for (std::size_t j = 0; j < n; ++j) {
      acc = addmod(acc, mulmod(x[j], wjk, p), p);
      wjk = mulmod(wjk, wk, p);
    }
    out[k] = static_cast<Word>(acc);
  }
  return out;
}

/// The product of polynomials a and b mod p (a, b non-empty).
template <class Word>
std::vector<Word> schoolbook(const std::vector<Word>& a, const std::vector<Word>& b,
                             std::uint64_t p) {
  std::vector<std::uint64_t> acc(a.size() + b.size() - 1, 0);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j)
      acc[i + j] = addmod(acc[i + j], mulmod(a[i], b[j], p), p);
  return std::vector<Word>(acc.begin(), acc.end());
}

/// a * b mod (x^n - 1, p), n = a.size() = b.size().
template <class Word>
std::vector<Word> schoolbook_cyclic(const std::vector<Word>& a, const std::vector<Word>& b,
                                    std::uint64_t p) {
  const std::vector<Word> full = schoolbook(a, b, p);
  std::vector<Word> out(a.size(), 0);
  for (std::size_t i = 0; i < full.size(); ++i)
    out[i % a.size()] = static_cast<Word>(addmod(out[i % a.size()], full[i], p));
  return out;
}

}  // namespace mpgpu_test
