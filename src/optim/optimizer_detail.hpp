#pragma once
// What SGD and Adam share: the gradient-shape check and zero_grad.

#include <algorithm>
#include <string>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/optim/parameter.hpp"

namespace gyre::optim::detail {

template <class T>
void require_gradient_shape(const char* where, const Parameter<T>& p) {
  if (p.grad.shape() != p.value.shape()) {
    throw ShapeError(where, "gradient shape must equal the value's shape (" + std::to_string(p.value.size()) + " entries)",
                     p.name);
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
