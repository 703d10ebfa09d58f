#pragma once
// A chain of modules whose field types connect: each module's input type must equal the previous
// module's output type (ShapeError naming both otherwise). train()/eval() reach every child.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// m_k ∘ … ∘ m_1, owning its modules.
template <class T>
class Sequential : public Module<T> {
 public:
  Sequential() = default;

  /// Appends a module; its input type must equal the current output type.
  Sequential& add(std::unique_ptr<Module<T>> module) {
    if (!modules_.empty()) require_field_type("Sequential::add", modules_.back()->out_type(), module->in_type());
    module->train(this->training());
    modules_.push_back(std::move(module));
    return *this;
  }
  /// Constructs a module in place and appends it; returns a reference to it.
  template <class M, class... Args>
  M& emplace(Args&&... args) {
    auto module = std::make_unique<M>(std::forward<Args>(args)...);
    M& ref = *module;
    add(std::move(module));
    return ref;
  }

  GeometricTensor<T> forward(const GeometricTensor<T>& input) override {
    require_nonempty("Sequential::forward");
    GeometricTensor<T> x = modules_.front()->forward(input);
    for (std::size_t i = 1; i < modules_.size(); ++i) x = modules_[i]->forward(x);
    return x;
  }
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override {
    require_nonempty("Sequential::backward");
    GeometricTensor<T> g = modules_.back()->backward(grad_output);
    for (std::size_t i = modules_.size() - 1; i-- > 0;) g = modules_[i]->backward(g);
    return g;
  }
  std::vector<Parameter<T>*> parameters() override {
    std::vector<Parameter<T>*> all;
    for (auto& m : modules_) {
      for (Parameter<T>* p : m->parameters()) all.push_back(p);
    }
    return all;
  }
  [[nodiscard]] const FieldType& in_type() const override {
    require_nonempty("Sequential::in_type");
    return modules_.front()->in_type();
  }
  [[nodiscard]] const FieldType& out_type() const override {
    require_nonempty("Sequential::out_type");
    return modules_.back()->out_type();
  }
  [[nodiscard]] std::string describe() const override {
    std::string text = "Sequential(\n";
    for (const auto& m : modules_) text += "  " + m->describe() + "\n";
    return text + ")";
  }
  void train(bool on = true) override {
    Module<T>::train(on);
    for (auto& m : modules_) m->train(on);
  }
  [[nodiscard]] std::size_t size() const noexcept { return modules_.size(); }
  [[nodiscard]] Module<T>& operator[](std::size_t i) { return *modules_.at(i); }

 private:
  void require_nonempty(const char* where) const {
    if (modules_.empty()) throw ShapeError(where, "the network has no modules", 0);
  }
  std::vector<std::unique_ptr<Module<T>>> modules_;
};

}  // namespace gyre::nn
