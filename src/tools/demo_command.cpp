#include "demo_command.hpp"

#include <ostream>

#include <nlohmann/json.hpp>

#include "gyre/io/idx.hpp"
#include "gyre/io/line_plot.hpp"
#include "gyre/nn/models.hpp"
#include "gyre/nn/training.hpp"
#include "image_runs.hpp"

namespace gyre::tools {

int run_demo(const DemoOptions& options, std::ostream& out, std::ostream& progress, bool progress_is_tty) {
  const ImageRunOptions run{options.epochs, options.angle_step_degrees};
  const PaddedFashionMnist data =
      load_for_image_runs(options.data_dir, options.train_images, options.test_images, run, out);
  const io::Dataset& train = data.train;
  const io::Dataset& test = data.test;
  const std::string& directory = data.directory;

  auto steerable = nn::steerable_cnn(repr::PlanarGroup::cyclic(8), 6, 8);
  auto plain = nn::plain_cnn(11, 14);
  const ImageRunResult s = train_and_evaluate("C8-steerable", *steerable, train, test, run, progress, progress_is_tty);
  const ImageRunResult p = train_and_evaluate("plain CNN", *plain, train, test, run, progress, progress_is_tty);

  print_image_runs({&s, &p}, out);
  const std::string json_path = options.out_dir + "/gyre-demo-report.json";
  const std::string svg_path = options.out_dir + "/gyre-demo-accuracy.svg";
  nlohmann::json report{{"dataset", directory},
                        {"train_images", train.labels.size()},
                        {"test_images", test.labels.size()},
                        {"epochs", options.epochs},
                        {"models", {to_json(s), to_json(p)}}};
  io::write_file_atomically(json_path, report.dump(2) + "\n");
  io::LinePlot plot{"Fashion-MNIST: test accuracy vs rotation of the test images",
                    "rotation (degrees)",
                    "accuracy",
                    {},
                    0.0,
                    1.0};  // the whole range: chance (10 %) to perfect
  plot.series.push_back({"C8-steerable (" + std::to_string(s.parameters) + " params)", s.angles_degrees, s.accuracy});
  plot.series.push_back({"plain CNN (" + std::to_string(p.parameters) + " params)", p.angles_degrees, p.accuracy});
  io::write_svg(plot, svg_path);
  const bool wins = s.mean_rotated_accuracy > p.mean_rotated_accuracy;
  out << "\nwrote " << json_path << " and " << svg_path << "\n"
      << (wins ? "the steerable CNN beats the plain CNN on rotated test images\n"
               : "FAILED: the steerable CNN does not beat the plain CNN on rotated test images\n");
  return wins ? 0 : 1;
}

}  // namespace gyre::tools
