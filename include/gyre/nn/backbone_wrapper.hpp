#pragma once
// What every symmetrizing wrapper (FrameAveraging, RotationCanonicalized, LorentzCanonicalized)
// shares: it owns a backbone whose parameters are its own, passes train/eval on, and keeps one
// saved call per forward of its own beside the backbone's.

#include <memory>
#include <utility>
#include <vector>

#include "gyre/core/error.hpp"
#include "gyre/nn/module.hpp"

namespace gyre::nn {

/// A module around a backbone; `Call` is what the wrapper saves per forward for its backward.
template <class T, class Call>
class BackboneWrapper : public Module<T> {
 public:
  std::vector<Parameter<T>*> parameters() override { return backbone_->parameters(); }
  void train(bool on = true) override {
    Module<T>::train(on);
    backbone_->train(on);
  }
  [[nodiscard]] std::size_t pending_calls() const override { return calls_.size(); }
  void discard_saved() override {
    calls_.clear();
    backbone_->discard_saved();
  }

 protected:
  /// Throws ShapeError (naming `wrapper`) for a null backbone.
  BackboneWrapper(std::shared_ptr<Module<T>> backbone, const char* wrapper) : backbone_(std::move(backbone)) {
    if (!backbone_) throw ShapeError(wrapper, "needs a backbone", "null");
  }

  std::shared_ptr<Module<T>> backbone_;
  SavedCalls<Call> calls_;
};

}  // namespace gyre::nn
