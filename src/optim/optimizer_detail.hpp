#pragma once
// What SGD and Adam share: the parameter and gradient-shape checks and zero_grad.

#include <algorithm>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/optim/parameter.hpp"

namespace gyre::optim::detail {

template <class T>
void require_gradient_shape(const char* where, const Parameter<T>& p) {
  if (p.grad.shape() != p.value.shape()) {
    throw ShapeError(
        where, "gradient shape must equal the value's shape (" + std::to_string(p.value.size()) + " entries)", p.name);
  }
}

// Every pointer must be a parameter; a null one would crash at the first step.
template <class T>
void require_parameters(const char* where, const std::vector<Parameter<T>*>& parameters) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i] == nullptr) throw DomainError(where, "parameter pointers must not be null (index)", i);
  }
}

template <class T>
void zero_gradients(const std::vector<Parameter<T>*>& parameters) {
  for (Parameter<T>* p : parameters) {
    if (p->grad.shape() == p->value.shape()) {
      std::fill(p->grad.begin(), p->grad.end(), T(0));
    } else {
      p->grad = xt::zeros_like(p->value);
    }
  }
}

}  // namespace gyre::optim::detail
