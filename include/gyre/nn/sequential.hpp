#pragma once
// A chain of modules whose field types connect: each module's input type must equal the previous
// module's output type (ShapeError naming both otherwise). train()/eval() reach every child.
// Parameters are named as torch's nn.Sequential names them: "<index>.<name>", so a Sequential
// nested at index 2 reports "2.0.weight". The prefix is given when a module is added; modules added
// to a child afterwards keep the child's own names.
//
// Weight sharing: add_shared() appends a module this network shares with others (or with itself:
// the same module may sit at several positions). A shared module's parameters are listed once, under
// the name of their first position, and receive the sum of every position's gradient.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// m_k ∘ … ∘ m_1, owning its modules.
template <class T>
class Sequential : public Module<T> {
 public:
  Sequential() = default;

  /// Appends a module (ShapeError unless its input type equals the current output type); it takes
  /// this network's training mode and its parameters get the prefix "<index>.".
  Sequential& add(std::unique_ptr<Module<T>> module);
  /// Appends a module that may also be used elsewhere (see the header comment).
  Sequential& add_shared(std::shared_ptr<Module<T>> module);
  /// Constructs a module in place and appends it; returns a reference to it.
  template <class M, class... Args>
  M& emplace(Args&&... args) {
    auto module = std::make_unique<M>(std::forward<Args>(args)...);
    M& ref = *module;
    add(std::move(module));
    return ref;
  }

  /// Forward through every module in order; ShapeError when the network is empty.
  GeometricTensor<T> forward(const GeometricTensor<T>& input) override;
  GeometricTensor<T> backward(const GeometricTensor<T>& grad_output) override;
  /// The children's parameters in order, each once.
  std::vector<Parameter<T>*> parameters() override;
  [[nodiscard]] const TensorType& in_type() const override;
  [[nodiscard]] const TensorType& out_type() const override;
  [[nodiscard]] std::size_t pending_calls() const override { return pending_; }
  void discard_saved() override;
  /// "Sequential(" and one indented line per child.
  [[nodiscard]] std::string describe() const override;
  void train(bool on = true) override;
  [[nodiscard]] std::size_t size() const noexcept { return modules_.size(); }
  /// The i-th module (std::out_of_range past the end).
  [[nodiscard]] Module<T>& operator[](std::size_t i) { return *modules_.at(i); }

 private:
  void require_nonempty(const char* where) const;
  std::vector<std::shared_ptr<Module<T>>> modules_;
  std::size_t pending_ = 0;  // forward calls not yet differentiated
};

extern template class Sequential<float>;
extern template class Sequential<double>;

}  // namespace gyre::nn
