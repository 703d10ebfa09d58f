#pragma once
// A field type: a group acting on the plane plus the representations of the fields a feature map
// carries, channel by channel (escnn's FieldType). Layers check the types they are given.

#include <string>
#include <vector>

#include "gyre/core/types.hpp"
#include "gyre/repr/planar_group.hpp"
#include "gyre/repr/representation.hpp"

namespace gyre::nn {

/// The group acting on ℝ² and, in channel order, the representation of each field.
class FieldType {
 public:
  /// Throws DomainError if a field's representation belongs to another group, ShapeError if empty.
  FieldType(repr::PlanarGroup group, std::vector<repr::Representation> fields);
  /// `count` copies of one representation.
  FieldType(repr::PlanarGroup group, const repr::Representation& field, int count);

  [[nodiscard]] const repr::PlanarGroup& group() const noexcept { return group_; }
  [[nodiscard]] const std::vector<repr::Representation>& fields() const noexcept { return fields_; }
  [[nodiscard]] int n_fields() const noexcept { return static_cast<int>(fields_.size()); }
  /// Number of channels, Σ field sizes.
  [[nodiscard]] int size() const noexcept { return size_; }
  /// First channel of field i.
  [[nodiscard]] int field_offset(int i) const { return offsets_.at(static_cast<std::size_t>(i)); }
  /// The block-diagonal matrix ⊕ᵢ ρᵢ(g) acting on the channels.
  [[nodiscard]] Matrix<double> representation_matrix(const repr::PlanarElement& g) const;
  /// Whether every field is a permutation representation (pointwise nonlinearities are equivariant).
  [[nodiscard]] bool all_permutation() const;
  /// "C8[16×regular]", "D4[irrep_0,0, irrep_1,1, 2×regular]".
  [[nodiscard]] std::string describe() const;

  friend bool operator==(const FieldType& a, const FieldType& b);
  friend bool operator!=(const FieldType& a, const FieldType& b) { return !(a == b); }

 private:
  repr::PlanarGroup group_;
  std::vector<repr::Representation> fields_;
  std::vector<int> offsets_;
  int size_ = 0;
};

/// Throws ShapeError "gyre::<where>: field types differ (expected … got …)" unless a == b.
void require_field_type(const char* where, const FieldType& expected, const FieldType& got);

}  // namespace gyre::nn
