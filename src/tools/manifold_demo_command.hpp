#pragma once
// `gyre demo spd` and `gyre demo grassmann`: manifold-valued networks trained on real data.
//
//   spd        an SPDNet (Huang & Van Gool 2017) — BiMap–ReEig–BiMap–ReEig–LogEig–linear — on the
//              7×7 region covariance descriptors of Fashion-MNIST images, BiMap weights on Stiefel
//              manifolds updated by Riemannian Adam;
//   grassmann  a GrNet (Huang, Wu & Van Gool 2018) — FRMap–ReOrth–ProjMap–ProjPooling–linear — on each
//              image's span of its 4 leading left singular vectors, a point of Gr(28, 4).
// Each prints a per-epoch table (loss, train and test accuracy, seconds), shows progress bars, and
// writes a JSON report and an SVG training curve. `norm` puts a batch normalization into the
// network (nn/manifold_normalizations.hpp); `compare` trains every normalization with `seeds`
// seeds (the same data, epochs and seeds for each) and reports the mean ± std of the final test
// accuracy, the time per epoch, and the mean test curves as SVG.

#include <cstdint>
#include <iosfwd>
#include <string>

namespace gyre::tools {

/// Which manifold network to train.
enum class ManifoldDemo { kSpd, kGrassmann };

/// Sizes of a manifold demo run.
struct ManifoldDemoOptions {
  std::size_t train_images = 10000;
  std::size_t test_images = 2000;
  int epochs = 4;
  std::string out_dir = ".";
  std::string data_dir;  ///< empty: Debian's dataset-fashion-mnist (or $GYRE_FASHION_MNIST)
  std::string norm = "none";
  std::uint64_t seed = 11;  ///< the first seed (initialisation and shuffling)
  bool compare = false;
  int seeds = 3;  ///< seeds per normalization with compare
};

/// Runs the demo; tables go to out, progress bars to progress. Returns 0 when the final test
/// accuracy (with compare: every variant's mean) is at least twice chance (20 %), 1 otherwise.
/// DomainError for an unknown normalization.
int run_manifold_demo(ManifoldDemo which, const ManifoldDemoOptions& options, std::ostream& out, std::ostream& progress,
                      bool progress_is_tty);

}  // namespace gyre::tools
