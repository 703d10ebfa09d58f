#pragma once
// The one cache of steerable bases: a basis is solved once per process for each distinct request
// (representations, kernel size, dilation, rings), whatever asks for it — R2Conv, the per-field
// blocks of a FieldKernelBasis, `gyre basis`. Keys hold every double bit for bit, so two requests
// share a basis exactly when they would compute the same one.

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>

#include "gyre/nn/kernel_basis.hpp"
#include "gyre/repr/representation.hpp"

namespace gyre::nn::detail {

/// Builds a cache key from the parts of a basis request.
class BasisKey {
 public:
  BasisKey& add(int value) {
    key_ << value << '|';
    return *this;
  }
  BasisKey& add(const double* values, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, &values[i], sizeof bits);
      key_ << std::hex << bits << std::dec << ',';
    }
    key_ << '|';
    return *this;
  }
  BasisKey& add(const repr::Representation& rho) {
    key_ << rho.group().name() << '/' << rho.group().max_frequency() << '[';
    for (const repr::Irrep& psi : rho.irreps()) key_ << psi.flip_frequency << ':' << psi.frequency << ';';
    add(rho.change_of_basis().data(), static_cast<std::size_t>(rho.change_of_basis().size()));
    key_ << ']';
    return *this;
  }
  BasisKey& add(const BasisParams& params) {
    add(params.rings.data(), params.rings.size());
    add(params.sigma.data(), params.sigma.size());
    for (const int f : params.max_frequency_per_ring) key_ << f << ',';
    key_ << '|';
    return *this;
  }
  [[nodiscard]] std::string str() const { return key_.str(); }

 private:
  std::ostringstream key_;
};

/// The cached basis of type Basis for `key`, built by `build()` on the first request. Thread-safe;
/// two threads asking at once may both build, and the first to finish is kept.
template <class Basis, class Build>
std::shared_ptr<const Basis> cached_basis(const BasisKey& key, Build&& build) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Basis>> cache;
  const std::string text = key.str();
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto found = cache.find(text);
    if (found != cache.end()) return found->second;
  }
  std::shared_ptr<const Basis> basis = build();
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(text, std::move(basis)).first->second;
}

}  // namespace gyre::nn::detail
