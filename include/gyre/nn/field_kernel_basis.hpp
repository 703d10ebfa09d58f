#pragma once
// The steerable basis between two field types: one KernelBasis per pair of distinct field
// representations, shared by every pair of fields of those representations, and the maps between
// learnable weights and the expanded (O, I, k, k) filter (and bias).
//
// Weight layout: blocks in (out representation class, in representation class) order; inside a
// block, weights[(a·n_in + c)·dim + b] multiplies basis element b for out field a and in field c of
// those classes. escnn's `dim` is the total, Σ over field pairs of the pair's basis dimension.
// A bias exists only for the trivial irreps inside output fields (escnn): the expanded bias is
// Q[:, trivial columns]·b per field.

#include <memory>
#include <vector>

#include "gyre/core/types.hpp"
#include "gyre/nn/field_type.hpp"
#include "gyre/nn/kernel_basis.hpp"

namespace gyre::nn {

/// The learnable-weight parametrisation of G-steerable k×k filters from `in` fields to `out` fields.
class FieldKernelBasis {
 public:
  FieldKernelBasis(const FieldType& out, const FieldType& in, int kernel_size, const BasisParams& params,
                   int dilation = 1);

  /// Number of learnable filter weights.
  [[nodiscard]] int dim() const noexcept { return dim_; }
  /// Number of learnable biases (trivial irreps in the output fields).
  [[nodiscard]] int bias_dim() const noexcept { return static_cast<int>(bias_columns_.size()); }
  [[nodiscard]] int kernel_size() const noexcept { return kernel_size_; }
  [[nodiscard]] int out_channels() const noexcept { return out_channels_; }
  [[nodiscard]] int in_channels() const noexcept { return in_channels_; }
  /// Σ over field pairs of the numerical rank of the pair's sampled basis.
  [[nodiscard]] int rank() const;

  /// filter (O·I·k·k, row-major (o, i, row, col)) = Σ_b weights[b]·basis[b].
  template <class T>
  void expand(const T* weights, T* filter) const;
  /// grad_weights[b] += ⟨grad_filter, basis[b]⟩ (the adjoint of expand).
  template <class T>
  void project(const T* grad_filter, T* grad_weights) const;
  /// full_bias (O) from the bias_dim() learnable biases.
  template <class T>
  void expand_bias(const T* bias, T* full_bias) const;
  /// grad_bias += the adjoint of expand_bias applied to grad_full_bias.
  template <class T>
  void project_bias(const T* grad_full_bias, T* grad_bias) const;

 private:
  struct Block {
    std::shared_ptr<const KernelBasis> basis;
    std::vector<int> out_offsets;  // first channel of each out field of this class
    std::vector<int> in_offsets;
    int weight_offset = 0;
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> samples_float;
  };
  struct BiasColumn {
    int channel_offset;     // first channel of the field
    Vector<double> column;  // the field's Q column of this trivial irrep
  };
  int kernel_size_;
  int out_channels_;
  int in_channels_;
  int dim_ = 0;
  std::vector<Block> blocks_;
  std::vector<BiasColumn> bias_columns_;
};

/// The basis for (out, in, k, params, dilation), built once per process and shared (thread safe).
[[nodiscard]] std::shared_ptr<const FieldKernelBasis> cached_field_kernel_basis(const FieldType& out,
                                                                                const FieldType& in, int kernel_size,
                                                                                const BasisParams& params,
                                                                                int dilation = 1);

}  // namespace gyre::nn
