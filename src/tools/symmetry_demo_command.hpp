#pragma once
// `gyre demo symmetry`: the three ways Gyre makes a model exactly symmetric without steerable
// filters, each against its plain counterpart on data.
//
//   Fashion-MNIST, training images randomly rotated, test images rotated every few degrees:
//     a D8 G-CNN whose group axis is subsampled to D4 with anti-aliasing (Rahman & Yeh), against the
//     same network with naive subsampling: accuracy, parameters, invariance of the logits, and the
//     aliasing of the learned features at the downsampling layer (their equivariance error to D8);
//     a plain CNN, against the same CNN on images canonicalized by orbit-distance minimisation
//     (Nguyen et al.): accuracy, invariance, and the canonicalizer's cost.
//   Charged n-body states (io/nbody.hpp): a plain MLP predicting what the interactions add to free
//     flight, x(T) − (x + T·v), against the same MLP under E(3) frame averaging (Puny et al.): test
//     error by epoch against predicting zero, equivariance error, time.
// Progress bars on stderr, tables on stdout, a JSON report and two SVG plots.

#include <cstddef>
#include <iosfwd>
#include <string>

namespace gyre::tools {

/// Sizes of the run; the defaults finish in a few minutes on 2 cores, full() is the long run.
struct SymmetryDemoOptions {
  std::size_t train_images = 6000;
  std::size_t test_images = 1000;
  int epochs = 3;
  int angle_step_degrees = 30;
  std::size_t nbody_train = 3000;
  std::size_t nbody_test = 1000;
  int nbody_epochs = 60;
  std::string out_dir = ".";
  std::string data_dir;  ///< empty: Debian's dataset-fashion-mnist (or $GYRE_FASHION_MNIST)

  /// 60000 training images, 5 epochs, the whole test set every 15°; 10000 n-body states, 100 epochs.
  static SymmetryDemoOptions full() {
    SymmetryDemoOptions o;
    o.train_images = 60000;
    o.test_images = 10000;
    o.epochs = 5;
    o.angle_step_degrees = 15;
    o.nbody_train = 10000;
    o.nbody_test = 2000;
    o.nbody_epochs = 100;
    return o;
  }
};

/// Runs the demo. Returns 0 when the exactness claims hold on the data — anti-aliasing lowers the
/// learned features' aliasing, the frame-averaged MLP is equivariant to float rounding (≤ 1e-4)
/// and the plain one is not (≥ 1e-2), the canonicalized CNN is invariant to quarter turns (≤ 1e-4)
/// and the plain one is not — and 1 otherwise.
int run_symmetry_demo(const SymmetryDemoOptions& options, std::ostream& out, std::ostream& progress,
                      bool progress_is_tty);

}  // namespace gyre::tools
