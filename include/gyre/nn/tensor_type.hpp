#pragma once
// The type of a feature tensor: a base (where the features sit) times a fiber (what sits there).
//
//   base    kNone   one item per channel and sample: data (B, C, item…)
//           kGrid   a 2-D grid of pixels:            data (B, C, H, W, item…)
//           kPoints a set of P points:               data (B, C, P, item…)
//   fiber   FieldType       representation fields of a planar group, C = Σ field sizes, no item axes
//                           (today's steerable feature maps: grid × fields, data (B, C, H, W))
//           ManifoldFiber   C channels of points of a manifold, item axes = the space's point shape,
//                           e.g. (B, C, n, n) SPD matrices or (B, C, n, p) orthonormal bases
//           EuclideanFiber  C plain real features: scalars (no item axes) or arrays of a fixed shape,
//                           e.g. (B, C, n, n) matrix logarithms of SPD features (SPDNet's LogEig)
//
// Layers declare the types they accept and return and check every input against them
// (require_type); two types are equal when base and fiber are.

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "gyre/geometry/batch_space.hpp"
#include "gyre/nn/field_type.hpp"

namespace gyre::nn {

/// Where features sit (see the header comment).
enum class Base { kNone, kGrid, kPoints };

/// C plain real features, each a scalar (empty item shape) or an array of item_shape.
struct EuclideanFiber {
  int channels = 0;
  std::vector<std::size_t> item_shape = {};
  friend bool operator==(const EuclideanFiber& a, const EuclideanFiber& b) {
    return a.channels == b.channels && a.item_shape == b.item_shape;
  }
};

/// C channels of points of one manifold, which travels with the type for float and double arrays.
class ManifoldFiber {
 public:
  /// Both spaces must describe the same geometry (equal names and item shapes).
  ManifoldFiber(std::shared_ptr<const BatchSpace<float>> space_f, std::shared_ptr<const BatchSpace<double>> space_d,
                int channels);
  /// The fiber of `channels` points of Geometry<T>(args…), e.g. ManifoldFiber::of<Sphere>(4, "S^2", 2).
  template <template <class> class Geometry, class... Args>
  static ManifoldFiber of(int channels, const std::string& name, const Args&... args) {
    return ManifoldFiber(make_batch_space(Geometry<float>(args...), name),
                         make_batch_space(Geometry<double>(args...), name), channels);
  }

  [[nodiscard]] int channels() const noexcept { return channels_; }
  [[nodiscard]] const std::string& name() const noexcept { return space_d_->name(); }
  [[nodiscard]] const std::vector<std::size_t>& item_shape() const noexcept { return space_d_->item_shape(); }
  /// The space acting on arrays of T.
  template <class T>
  [[nodiscard]] const BatchSpace<T>& space() const noexcept {
    if constexpr (std::is_same_v<T, float>) {
      return *space_f_;
    } else {
      return *space_d_;
    }
  }
  template <class T>
  [[nodiscard]] std::shared_ptr<const BatchSpace<T>> shared_space() const noexcept {
    if constexpr (std::is_same_v<T, float>) {
      return space_f_;
    } else {
      return space_d_;
    }
  }
  friend bool operator==(const ManifoldFiber& a, const ManifoldFiber& b) {
    return a.channels_ == b.channels_ && a.name() == b.name() && a.item_shape() == b.item_shape();
  }

 private:
  std::shared_ptr<const BatchSpace<float>> space_f_;
  std::shared_ptr<const BatchSpace<double>> space_d_;
  int channels_;
};

/// A base times a fiber (see the header comment).
class TensorType {
 public:
  using Fiber = std::variant<FieldType, ManifoldFiber, EuclideanFiber>;

  TensorType(Base base, Fiber fiber);
  /// Steerable feature maps: grid × fields (what every layer of escnn's kind takes).
  TensorType(FieldType fields);  // NOLINT(google-explicit-constructor): a field type is a grid tensor's type

  [[nodiscard]] Base base() const noexcept { return base_; }
  [[nodiscard]] const Fiber& fiber() const noexcept { return fiber_; }
  [[nodiscard]] bool has_fields() const noexcept { return std::holds_alternative<FieldType>(fiber_); }
  [[nodiscard]] bool has_manifold() const noexcept { return std::holds_alternative<ManifoldFiber>(fiber_); }
  [[nodiscard]] bool is_euclidean() const noexcept { return std::holds_alternative<EuclideanFiber>(fiber_); }
  /// The representation fields (ShapeError naming `where` unless the fiber holds fields).
  [[nodiscard]] const FieldType& fields(const char* where = "TensorType::fields") const;
  /// The manifold fiber (ShapeError naming `where` unless the fiber holds manifold points).
  [[nodiscard]] const ManifoldFiber& manifold(const char* where = "TensorType::manifold") const;
  /// The channel count C (axis 1 of the data).
  [[nodiscard]] int channels() const;
  /// The number of base axes: 0 (none), 2 (grid), 1 (points).
  [[nodiscard]] std::size_t base_rank() const noexcept;
  /// The item axes of the fiber (empty for fields and scalar Euclidean features).
  [[nodiscard]] std::vector<std::size_t> item_shape() const;
  /// Throws ShapeError naming `where` unless `shape` is (B, C, base axes…, item axes…) of this type.
  void check_shape(const char* where, const std::vector<std::size_t>& shape) const;
  /// "grid × C8[16×regular]", "none × SPD(3)[4]", "points × ℝ[10]", "none × ℝ^(3×3)[4]".
  [[nodiscard]] std::string describe() const;

  friend bool operator==(const TensorType& a, const TensorType& b) {
    return a.base_ == b.base_ && a.fiber_ == b.fiber_;
  }
  friend bool operator!=(const TensorType& a, const TensorType& b) { return !(a == b); }

 private:
  Base base_;
  Fiber fiber_;
};

/// Throws ShapeError "gyre::<where>: tensor types differ (expected … got …)" unless a == b.
void require_type(const char* where, const TensorType& expected, const TensorType& got);
/// The same for a layer written for feature maps: `got` must be grid × `expected`.
void require_field_type(const char* where, const FieldType& expected, const TensorType& got);

}  // namespace gyre::nn
