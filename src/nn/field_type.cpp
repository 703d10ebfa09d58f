#include "gyre/nn/field_type.hpp"

#include "gyre/core/error.hpp"

namespace gyre::nn {

FieldType::FieldType(repr::PlanarGroup group, std::vector<repr::Representation> fields)
    : group_(group), fields_(std::move(fields)) {
  if (fields_.empty()) throw ShapeError("FieldType", "a field type needs at least one field", 0);
  for (const repr::Representation& rho : fields_) {
    if (rho.group() != group_) {
      throw DomainError("FieldType", "field representation belongs to " + rho.group().name() + ", not " + group_.name(),
                        rho.name());
    }
    offsets_.push_back(size_);
    size_ += rho.size();
  }
}

FieldType::FieldType(repr::PlanarGroup group, const repr::Representation& field, int count)
    : FieldType(group, std::vector<repr::Representation>(static_cast<std::size_t>(count > 0 ? count : 0), field)) {}

Matrix<double> FieldType::representation_matrix(const repr::PlanarElement& g) const {
  Matrix<double> result = Matrix<double>::Zero(size_, size_);
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const int d = fields_[i].size();
    result.block(offsets_[i], offsets_[i], d, d) = fields_[i].matrix(g);
  }
  return result;
}

bool FieldType::all_permutation() const {
  for (const repr::Representation& rho : fields_) {
    if (!rho.is_permutation()) return false;
  }
  return true;
}

std::string FieldType::describe() const {
  std::string text = group_.name() + "[";
  std::size_t i = 0;
  while (i < fields_.size()) {
    std::size_t j = i;
    while (j < fields_.size() && fields_[j].equivalent_to(fields_[i]) && fields_[j].name() == fields_[i].name()) ++j;
    if (i > 0) text += ", ";
    if (j - i > 1) text += std::to_string(j - i) + "×";
    text += fields_[i].name();
    i = j;
  }
  return text + "]";
}

bool operator==(const FieldType& a, const FieldType& b) {
  if (a.group_ != b.group_ || a.fields_.size() != b.fields_.size()) return false;
  for (std::size_t i = 0; i < a.fields_.size(); ++i) {
    if (!a.fields_[i].equivalent_to(b.fields_[i])) return false;
  }
  return true;
}

void require_field_type(const char* where, const FieldType& expected, const FieldType& got) {
  if (expected != got) {
    throw ShapeError(where, "field types differ (expected " + expected.describe() + ")", "got " + got.describe());
  }
}

}  // namespace gyre::nn
