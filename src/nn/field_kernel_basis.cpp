#include "gyre/nn/field_kernel_basis.hpp"

#include <cstring>

#include "basis_cache.hpp"
#include "gyre/core/error.hpp"

namespace gyre::nn {
namespace {

template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Indices of the distinct representations among the fields, and each field's class.
std::vector<int> classify(const FieldType& type, std::vector<int>& representative) {
  std::vector<int> class_of;
  for (int f = 0; f < type.n_fields(); ++f) {
    int found = -1;
    for (std::size_t c = 0; c < representative.size(); ++c) {
      if (type.fields()[static_cast<std::size_t>(representative[c])].equivalent_to(
              type.fields()[static_cast<std::size_t>(f)])) {
        found = static_cast<int>(c);
        break;
      }
    }
    if (found < 0) {
      found = static_cast<int>(representative.size());
      representative.push_back(f);
    }
    class_of.push_back(found);
  }
  return class_of;
}

}  // namespace

FieldKernelBasis::FieldKernelBasis(const FieldType& out, const FieldType& in, int kernel_size,
                                   const BasisParams& params, int dilation)
    : kernel_size_(kernel_size), out_channels_(out.size()), in_channels_(in.size()) {
  if (out.group() != in.group()) {
    throw DomainError("FieldKernelBasis", "field types of different groups (" + out.group().name() + ")",
                      in.group().name());
  }
  std::vector<int> out_representative;
  std::vector<int> in_representative;
  const std::vector<int> out_class = classify(out, out_representative);
  const std::vector<int> in_class = classify(in, in_representative);
  for (std::size_t co = 0; co < out_representative.size(); ++co) {
    for (std::size_t ci = 0; ci < in_representative.size(); ++ci) {
      Block block;
      block.basis = cached_kernel_basis(out.fields()[static_cast<std::size_t>(out_representative[co])],
                                        in.fields()[static_cast<std::size_t>(in_representative[ci])], kernel_size,
                                        params, dilation);
      for (int f = 0; f < out.n_fields(); ++f) {
        if (out_class[static_cast<std::size_t>(f)] == static_cast<int>(co))
          block.out_offsets.push_back(out.field_offset(f));
      }
      for (int f = 0; f < in.n_fields(); ++f) {
        if (in_class[static_cast<std::size_t>(f)] == static_cast<int>(ci))
          block.in_offsets.push_back(in.field_offset(f));
      }
      if (block.basis->dim() == 0) continue;
      block.weight_offset = dim_;
      dim_ += block.basis->dim() * static_cast<int>(block.out_offsets.size() * block.in_offsets.size());
      block.samples_float = block.basis->samples().cast<float>();
      blocks_.push_back(std::move(block));
    }
  }
  for (int f = 0; f < out.n_fields(); ++f) {
    const repr::Representation& rho = out.fields()[static_cast<std::size_t>(f)];
    for (std::size_t i = 0; i < rho.irreps().size(); ++i) {
      if (rho.irreps()[i] == repr::Irrep{0, 0}) {
        bias_columns_.push_back(
            {out.field_offset(f), rho.change_of_basis().col(rho.irrep_offset(static_cast<int>(i)))});
      }
    }
  }
}

int FieldKernelBasis::rank() const {
  int total = 0;
  for (const Block& block : blocks_) {
    total += block.basis->rank() * static_cast<int>(block.out_offsets.size() * block.in_offsets.size());
  }
  return total;
}

template <class T>
void FieldKernelBasis::expand(const T* weights, T* filter) const {
  const int pixels = kernel_size_ * kernel_size_;
  std::fill(filter, filter + static_cast<std::size_t>(out_channels_) * in_channels_ * pixels, T(0));
  for (const Block& block : blocks_) {
    const KernelBasis& basis = *block.basis;
    const int n_out = static_cast<int>(block.out_offsets.size());
    const int n_in = static_cast<int>(block.in_offsets.size());
    const Eigen::Map<const RowMatrix<T>> w(weights + block.weight_offset, n_out * n_in, basis.dim());
    RowMatrix<T> expanded;
    if constexpr (std::is_same_v<T, float>) {
      expanded.noalias() = w * block.samples_float;
    } else {
      expanded.noalias() = w * basis.samples().template cast<T>();
    }
    const int d_o = basis.out_size();
    const int d_i = basis.in_size();
    for (int a = 0; a < n_out; ++a) {
      for (int c = 0; c < n_in; ++c) {
        const T* src = expanded.data() + static_cast<std::size_t>(a * n_in + c) * d_o * d_i * pixels;
        for (int o = 0; o < d_o; ++o) {
          for (int i = 0; i < d_i; ++i) {
            T* dst =
                filter + (static_cast<std::size_t>(block.out_offsets[static_cast<std::size_t>(a)] + o) * in_channels_ +
                          static_cast<std::size_t>(block.in_offsets[static_cast<std::size_t>(c)] + i)) *
                             pixels;
            std::memcpy(dst, src + static_cast<std::size_t>(o * d_i + i) * pixels,
                        sizeof(T) * static_cast<std::size_t>(pixels));
          }
        }
      }
    }
  }
}

template <class T>
void FieldKernelBasis::project(const T* grad_filter, T* grad_weights) const {
  const int pixels = kernel_size_ * kernel_size_;
  for (const Block& block : blocks_) {
    const KernelBasis& basis = *block.basis;
    const int n_out = static_cast<int>(block.out_offsets.size());
    const int n_in = static_cast<int>(block.in_offsets.size());
    const int d_o = basis.out_size();
    const int d_i = basis.in_size();
    RowMatrix<T> gathered(n_out * n_in, d_o * d_i * pixels);
    for (int a = 0; a < n_out; ++a) {
      for (int c = 0; c < n_in; ++c) {
        T* dst = gathered.data() + static_cast<std::size_t>(a * n_in + c) * d_o * d_i * pixels;
        for (int o = 0; o < d_o; ++o) {
          for (int i = 0; i < d_i; ++i) {
            const T* src = grad_filter + (static_cast<std::size_t>(block.out_offsets[static_cast<std::size_t>(a)] + o) *
                                              in_channels_ +
                                          static_cast<std::size_t>(block.in_offsets[static_cast<std::size_t>(c)] + i)) *
                                             pixels;
            std::memcpy(dst + static_cast<std::size_t>(o * d_i + i) * pixels, src,
                        sizeof(T) * static_cast<std::size_t>(pixels));
          }
        }
      }
    }
    Eigen::Map<RowMatrix<T>> g(grad_weights + block.weight_offset, n_out * n_in, basis.dim());
    if constexpr (std::is_same_v<T, float>) {
      g.noalias() += gathered * block.samples_float.transpose();
    } else {
      g.noalias() += gathered * basis.samples().template cast<T>().transpose();
    }
  }
}

template <class T>
void FieldKernelBasis::expand_bias(const T* bias, T* full_bias) const {
  std::fill(full_bias, full_bias + out_channels_, T(0));
  for (std::size_t b = 0; b < bias_columns_.size(); ++b) {
    const BiasColumn& column = bias_columns_[b];
    for (Eigen::Index r = 0; r < column.column.size(); ++r) {
      full_bias[column.channel_offset + r] += static_cast<T>(column.column(r)) * bias[b];
    }
  }
}

template <class T>
void FieldKernelBasis::project_bias(const T* grad_full_bias, T* grad_bias) const {
  for (std::size_t b = 0; b < bias_columns_.size(); ++b) {
    const BiasColumn& column = bias_columns_[b];
    T sum = 0;
    for (Eigen::Index r = 0; r < column.column.size(); ++r) {
      sum += static_cast<T>(column.column(r)) * grad_full_bias[column.channel_offset + r];
    }
    grad_bias[b] += sum;
  }
}

template void FieldKernelBasis::expand(const float*, float*) const;
template void FieldKernelBasis::expand(const double*, double*) const;
template void FieldKernelBasis::project(const float*, float*) const;
template void FieldKernelBasis::project(const double*, double*) const;
template void FieldKernelBasis::expand_bias(const float*, float*) const;
template void FieldKernelBasis::expand_bias(const double*, double*) const;
template void FieldKernelBasis::project_bias(const float*, float*) const;
template void FieldKernelBasis::project_bias(const double*, double*) const;

std::shared_ptr<const FieldKernelBasis> cached_field_kernel_basis(const FieldType& out, const FieldType& in,
                                                                  int kernel_size, const BasisParams& params,
                                                                  int dilation) {
  detail::BasisKey key;
  for (const FieldType* type : {&out, &in}) {
    key.add(type->n_fields());
    for (const repr::Representation& rho : type->fields()) key.add(rho);
  }
  key.add(kernel_size).add(dilation).add(params);
  return detail::cached_basis<FieldKernelBasis>(
      key, [&] { return std::make_shared<const FieldKernelBasis>(out, in, kernel_size, params, dilation); });
}

}  // namespace gyre::nn
