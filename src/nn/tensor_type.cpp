#include "gyre/nn/tensor_type.hpp"

#include <utility>

#include "gyre/core/error.hpp"

namespace gyre::nn {

ManifoldFiber::ManifoldFiber(std::shared_ptr<const BatchSpace<float>> space_f,
                             std::shared_ptr<const BatchSpace<double>> space_d, int channels)
    : space_f_(std::move(space_f)), space_d_(std::move(space_d)), channels_(channels) {
  const char* const where = "ManifoldFiber";
  if (!space_f_ || !space_d_) throw DomainError(where, "both the float and the double space must be given", channels);
  if (space_f_->name() != space_d_->name() || space_f_->item_shape() != space_d_->item_shape()) {
    throw DomainError(where, "the float and double spaces differ (" + space_f_->name() + ")", space_d_->name());
  }
  if (!(channels >= 1)) throw ShapeError(where, "channel count must be >= 1", channels);
}

TensorType::TensorType(Base base, Fiber fiber) : base_(base), fiber_(std::move(fiber)) {
  if (const auto* e = std::get_if<EuclideanFiber>(&fiber_); e && !(e->channels >= 1)) {
    throw ShapeError("TensorType", "channel count must be >= 1", e->channels);
  } else if (e) {
    for (std::size_t extent : e->item_shape) {
      if (extent == 0) throw ShapeError("TensorType", "Euclidean item axes must be >= 1", describe());
    }
  }
}

TensorType::TensorType(FieldType fields) : TensorType(Base::kGrid, Fiber(std::move(fields))) {}

const FieldType& TensorType::fields(const char* where) const {
  if (const auto* f = std::get_if<FieldType>(&fiber_)) return *f;
  throw ShapeError(where, "needs representation fields", describe());
}

const ManifoldFiber& TensorType::manifold(const char* where) const {
  if (const auto* m = std::get_if<ManifoldFiber>(&fiber_)) return *m;
  throw ShapeError(where, "needs points of a manifold", describe());
}

int TensorType::channels() const {
  if (const auto* f = std::get_if<FieldType>(&fiber_)) return f->size();
  if (const auto* m = std::get_if<ManifoldFiber>(&fiber_)) return m->channels();
  return std::get<EuclideanFiber>(fiber_).channels;
}

std::size_t TensorType::base_rank() const noexcept {
  switch (base_) {
    case Base::kGrid:
      return 2;
    case Base::kPoints:
      return 1;
    case Base::kNone:
      break;
  }
  return 0;
}

std::vector<std::size_t> TensorType::item_shape() const {
  if (const auto* m = std::get_if<ManifoldFiber>(&fiber_)) return m->item_shape();
  if (const auto* e = std::get_if<EuclideanFiber>(&fiber_)) return e->item_shape;
  return {};
}

void TensorType::check_shape(const char* where, const std::vector<std::size_t>& shape) const {
  const std::vector<std::size_t> item = item_shape();
  const std::size_t rank = 2 + base_rank() + item.size();
  std::string text = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) text += (k ? ", " : "") + std::to_string(shape[k]);
  text += ")";
  const std::string expected = "shape (B, C, " +
                               std::string(base_ == Base::kGrid     ? "H, W, "
                                           : base_ == Base::kPoints ? "P, "
                                                                    : "") +
                               "item…) of " + describe();
  if (shape.size() != rank)
    throw ShapeError(where, "data must have " + std::to_string(rank) + " axes: " + expected, text);
  if (shape[1] != static_cast<std::size_t>(channels())) {
    throw ShapeError(where, "axis 1 must be the channel count " + std::to_string(channels()) + " of " + describe(),
                     text);
  }
  for (std::size_t k = 0; k < item.size(); ++k) {
    if (shape[rank - item.size() + k] != item[k])
      throw ShapeError(where, "trailing axes must be the item shape: " + expected, text);
  }
}

std::string TensorType::describe() const {
  std::string base = base_ == Base::kGrid ? "grid" : base_ == Base::kPoints ? "points" : "none";
  std::string fiber;
  if (const auto* f = std::get_if<FieldType>(&fiber_)) {
    fiber = f->describe();
  } else if (const auto* m = std::get_if<ManifoldFiber>(&fiber_)) {
    fiber = m->name() + "[" + std::to_string(m->channels()) + "]";
  } else {
    const EuclideanFiber& e = std::get<EuclideanFiber>(fiber_);
    std::string shape;
    for (std::size_t k = 0; k < e.item_shape.size(); ++k) shape += (k ? "×" : "^(") + std::to_string(e.item_shape[k]);
    fiber = "ℝ" + (shape.empty() ? "" : shape + ")") + "[" + std::to_string(e.channels) + "]";
  }
  return base + " × " + fiber;
}

void require_type(const char* where, const TensorType& expected, const TensorType& got) {
  if (expected != got)
    throw ShapeError(where, "tensor types differ (expected " + expected.describe() + ")", "got " + got.describe());
}

void require_field_type(const char* where, const FieldType& expected, const TensorType& got) {
  require_type(where, TensorType(expected), got);
}

}  // namespace gyre::nn
