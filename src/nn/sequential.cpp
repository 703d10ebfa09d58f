#include "gyre/nn/sequential.hpp"

#include <algorithm>

#include "gyre/core/error.hpp"

namespace gyre::nn {

template <class T>
Sequential<T>& Sequential<T>::add(std::unique_ptr<Module<T>> module) {
  return add_shared(std::shared_ptr<Module<T>>(std::move(module)));
}

template <class T>
Sequential<T>& Sequential<T>::add_shared(std::shared_ptr<Module<T>> module) {
  if (!module) throw DomainError("Sequential::add", "module must not be null", size());
  if (!modules_.empty()) require_type("Sequential::add", modules_.back()->out_type(), module->in_type());
  const bool seen = std::find(modules_.begin(), modules_.end(), module) != modules_.end();
  module->train(this->training());
  if (!seen) {
    const std::string prefix = std::to_string(modules_.size()) + ".";
    for (Parameter<T>* p : module->parameters()) p->name = prefix + p->name;
  }
  modules_.push_back(std::move(module));
  return *this;
}

template <class T>
GeometricTensor<T> Sequential<T>::forward(const GeometricTensor<T>& input) {
  require_nonempty("Sequential::forward");
  GeometricTensor<T> x = modules_.front()->forward(input);
  for (std::size_t i = 1; i < modules_.size(); ++i) x = modules_[i]->forward(x);
  if (grad_recording()) ++pending_;
  return x;
}

template <class T>
GeometricTensor<T> Sequential<T>::backward(const GeometricTensor<T>& grad_output) {
  require_nonempty("Sequential::backward");
  if (pending_ == 0) {
    throw UnmatchedBackwardError("Sequential::backward",
                                 "backward() without a matching forward() (outside NoGrad) to differentiate",
                                 std::to_string(modules_.size()) + " modules");
  }
  GeometricTensor<T> g = modules_.back()->backward(grad_output);
  for (std::size_t i = modules_.size() - 1; i-- > 0;) g = modules_[i]->backward(g);
  --pending_;
  return g;
}

template <class T>
void Sequential<T>::discard_saved() {
  pending_ = 0;
  for (auto& m : modules_) m->discard_saved();
}

template <class T>
std::vector<Parameter<T>*> Sequential<T>::parameters() {
  std::vector<Parameter<T>*> all;
  for (auto& m : modules_) {
    for (Parameter<T>* p : m->parameters()) {
      if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
    }
  }
  return all;
}

template <class T>
const TensorType& Sequential<T>::in_type() const {
  require_nonempty("Sequential::in_type");
  return modules_.front()->in_type();
}

template <class T>
const TensorType& Sequential<T>::out_type() const {
  require_nonempty("Sequential::out_type");
  return modules_.back()->out_type();
}

template <class T>
std::string Sequential<T>::describe() const {
  std::string text = "Sequential(\n";
  for (const auto& m : modules_) text += "  " + m->describe() + "\n";
  return text + ")";
}

template <class T>
void Sequential<T>::train(bool on) {
  Module<T>::train(on);
  for (auto& m : modules_) m->train(on);
}

template <class T>
void Sequential<T>::require_nonempty(const char* where) const {
  if (modules_.empty()) throw ShapeError(where, "the network has no modules", 0);
}

template class Sequential<float>;
template class Sequential<double>;

}  // namespace gyre::nn
