#pragma once
// `gyre demo`: the library's first real job. Trains a C8-steerable CNN and a conventional CNN of
// about the same size on Fashion-MNIST with randomly rotated training images, evaluates both on the
// test set rotated by a range of angles, measures how far each is from rotation invariance, and
// writes a JSON report and an SVG plot of accuracy against rotation angle.

#include <iosfwd>
#include <string>

namespace gyre::tools {

/// Sizes of the run; the defaults finish in a few minutes on 2 cores, full() is the long run.
struct DemoOptions {
  std::size_t train_images = 6000;
  std::size_t test_images = 500;
  int epochs = 2;
  int angle_step_degrees = 30;
  std::string out_dir = ".";
  std::string data_dir;  ///< empty: Debian's dataset-fashion-mnist (or $GYRE_FASHION_MNIST)

  /// 60000 training images, 5 epochs, the whole test set every 15°.
  static DemoOptions full() {
    DemoOptions o;
    o.train_images = 60000;
    o.test_images = 10000;
    o.epochs = 5;
    o.angle_step_degrees = 15;
    return o;
  }
};

/// Runs the demo; the table goes to out, progress bars to progress. Returns 0 when the steerable
/// network beats the plain one on the rotated test set, 1 otherwise.
int run_demo(const DemoOptions& options, std::ostream& out, std::ostream& progress, bool progress_is_tty);

}  // namespace gyre::tools
