#pragma once
// Downsampling regular feature fields over the group axis (Rahman & Yeh, ICLR 2025): a field of
// G-regular channels becomes a field of H-regular channels, H ⊂ G the subgroup at `rate`
// (repr/group_downsampling.hpp), at every pixel:
//   anti-aliased   y = D·x, D = S·P: the band-limiting projector P, then sampling on H; P is applied
//                  as one GEMM with D per field (the default, fastest), or in Fourier space as the
//                  paper defines it (one batched FFTW transform of every field at every pixel, the
//                  band mask, the inverse; backward: Dᵀ = P·Sᵀ the same way);
//   naive          y = S·x: the values at H's elements only (what the rate alone does).
// Both are exactly H-equivariant (S and P commute with H); the anti-aliased one keeps the
// G-equivariance of band-limited features (reconstruction by U is exact on the band), and the
// aliasing the naive one introduces is what the tests and `gyre demo symmetry` measure. The layer
// acts on the group axis only: spatial striding composes with it (pooling before or after).

#include <string>
#include <vector>

#include "gyre/nn/module.hpp"
#include "gyre/repr/fourier.hpp"
#include "gyre/repr/group_downsampling.hpp"

namespace gyre::nn {

/// How the anti-aliased map is applied: a GEMM with the |H| × |G| matrix D, or P through the batched
/// Fourier transform (the paper's spectral form; tested equal). kAuto is the GEMM: measured by
/// tests/bench/symmetry_bench.cpp, it is 5.6× faster at |G| = 16 and 50× at |G| = 128.
enum class DownsampleEngine { kAuto, kDense, kFourier };

/// Downsamples every regular field of a C_N or D_N feature map to its subgroup at `rate`.
template <class T>
class GroupDownsample : public Module<T> {
 public:
  /// Throws DomainError unless every field of `type` is the regular representation of C_N or D_N,
  /// and when the rate gives no subgroup (see repr::subsample_group).
  GroupDownsample(FieldType type, int rate, repr::SubgroupFamily family = repr::SubgroupFamily::kSameFamily,
                  bool anti_aliasing = true, DownsampleEngine engine = DownsampleEngine::kAuto);

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  [[nodiscard]] const TensorType& in_type() const override { return in_tensor_; }
  [[nodiscard]] const TensorType& out_type() const override { return out_tensor_; }
  [[nodiscard]] std::string describe() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override { calls_.clear(); }

  /// The band, projector, sampling and reconstruction operators in use.
  [[nodiscard]] const repr::BandLimiting& operators() const noexcept { return operators_; }
  /// The |H| × |G| matrix applied to each field at each pixel (S·P, or S when naive).
  [[nodiscard]] const Matrix<double>& field_map() const noexcept { return field_map_; }

 private:
  struct Call {
    std::size_t batch = 0, height = 0, width = 0;
  };
  FieldType in_;
  repr::BandLimiting operators_;
  bool anti_aliasing_;
  bool use_fourier_;
  Matrix<double> field_map_;
  Matrix<T> field_map_t_;
  repr::GroupFourierTransform<T> transform_;
  Vector<double> mask_;
  // P applied to `count` contiguous signals of |G| values, in place.
  void band_limit(std::vector<T>& signals, std::size_t count) const;
  FieldType out_;
  TensorType in_tensor_{in_};
  TensorType out_tensor_{out_};
  SavedCalls<Call> calls_;
};

}  // namespace gyre::nn
