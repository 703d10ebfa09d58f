#include "layer_command.hpp"

#include <cmath>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <vector>

#include "canonicalize_request.hpp"
#include "frame_request.hpp"
#include "group_downsample_request.hpp"
#include "gyre/core/error.hpp"
#include "gyre/nn/bimap.hpp"
#include "gyre/nn/eigenvalue_maps.hpp"
#include "gyre/nn/gbw_batch_norm.hpp"
#include "gyre/nn/lie_batch_norm.hpp"
#include "gyre/nn/manifold_batch_norm.hpp"
#include "gyre/nn/manifold_fibers.hpp"
#include "json_codec.hpp"

namespace gyre::tools {

namespace {

using nlohmann::json;
using Array = xt::xarray<double>;

// Unknown keys are refused, not ignored: a misspelt option would otherwise run with its default.
void require_known_keys(const json& object, const std::string& what, const std::set<std::string>& known) {
  if (!object.is_object()) throw RequestError("\"" + what + "\" must be a JSON object");
  for (const auto& [key, value] : object.items()) {
    (void)value;
    if (known.count(key) == 0) throw RequestError("unknown " + what + " key \"" + key + "\"");
  }
}

const json& field(const json& object, const std::string& key) {
  static const json kNull;
  return object.contains(key) ? object[key] : kNull;
}

double number_or(const json& object, const std::string& key, double fallback) {
  const json& value = field(object, key);
  if (value.is_null()) return fallback;
  if (!value.is_number()) throw RequestError("\"" + key + "\" must be a number: " + value.dump());
  return value.get<double>();
}

int integer_or(const json& object, const std::string& key, int fallback) {
  const json& value = field(object, key);
  if (value.is_null()) return fallback;
  if (!value.is_number_integer()) throw RequestError("\"" + key + "\" must be an integer: " + value.dump());
  return value.get<int>();
}

std::string word_or(const json& object, const std::string& key, const std::string& fallback) {
  const json& value = field(object, key);
  if (value.is_null()) return fallback;
  if (!value.is_string()) throw RequestError("\"" + key + "\" must be a string: " + value.dump());
  return value.get<std::string>();
}

// The shape of one point: {n} for vectors (the ball), {rows, cols} for matrices.
using ItemShape = std::vector<std::size_t>;

std::string shape_text(const ItemShape& shape) {
  return shape.size() == 1 ? std::to_string(shape[0]) : std::to_string(shape[0]) + "×" + std::to_string(shape[1]);
}

// One point of `shape` (ShapeError naming `what` otherwise), as a column for vectors.
Eigen::MatrixXd decode_point(const json& value, const std::string& what, const ItemShape& shape) {
  const Eigen::MatrixXd m = decode_matrix(value, what);
  const auto rows = static_cast<Eigen::Index>(shape[0]);
  const Eigen::Index cols = shape.size() == 1 ? 1 : static_cast<Eigen::Index>(shape[1]);
  if (m.rows() != rows || m.cols() != cols) {
    throw ShapeError("layer", what + " must be " + shape_text(shape),
                     std::to_string(m.rows()) + "×" + std::to_string(m.cols()));
  }
  return m;
}

// Stores m into item k of a's buffer (row-major).
void put(Array& a, std::size_t k, const Eigen::MatrixXd& m) {
  const auto size = static_cast<std::size_t>(m.size());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      a.data()[k * size + static_cast<std::size_t>(i * m.cols() + j)] = m(i, j);
}

// A list of points → (B, 1, item…); at least one point.
Array decode_batch(const json& value, const std::string& what, const ItemShape& shape) {
  if (!value.is_array() || value.empty()) throw RequestError("\"" + what + "\" must be a non-empty list of points");
  ItemShape full = {value.size(), 1};
  full.insert(full.end(), shape.begin(), shape.end());
  Array out = Array::from_shape(full);
  for (std::size_t b = 0; b < value.size(); ++b)
    put(out, b, decode_point(value[b], what + "[" + std::to_string(b) + "]", shape));
  return out;
}

// One point → (1, item…): a parameter or statistic of a one-channel layer.
Array decode_channel_point(const json& value, const std::string& what, const ItemShape& shape) {
  ItemShape full = {1};
  full.insert(full.end(), shape.begin(), shape.end());
  Array out = Array::from_shape(full);
  put(out, 0, decode_point(value, what, shape));
  return out;
}

// The item shape of an array whose leading axes are `leading` many.
ItemShape item_shape_of(const Array& a, std::size_t leading) {
  return ItemShape(a.shape().begin() + static_cast<std::ptrdiff_t>(leading), a.shape().end());
}

json encode_item(const Array& a, std::size_t k, const ItemShape& shape) {
  const auto rows = static_cast<Eigen::Index>(shape[0]);
  const Eigen::Index cols = shape.size() == 1 ? 1 : static_cast<Eigen::Index>(shape[1]);
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j)
      m(i, j) = a.data()[k * static_cast<std::size_t>(rows * cols) + static_cast<std::size_t>(i * cols + j)];
  return encode_point(m, shape.size() == 1 ? PointEncoding::kVector : PointEncoding::kMatrix);
}

json encode_items(const Array& a, const ItemShape& shape) {
  std::size_t size = 1;
  for (const std::size_t d : shape) size *= d;
  json out = json::array();
  for (std::size_t k = 0; k < a.size() / size; ++k) out.push_back(encode_item(a, k, shape));
  return out;
}

// What every layer request shares once the layer is built.
struct Run {
  const json& request;
  bool training;
  bool with_grad;
};

// forward (and backward) of a module on the request's input; fills output and grad_input.
json run_module(nn::Module<double>& module, const Run& run, const ItemShape& in_shape) {
  module.train(run.training);
  const Array input = decode_batch(field(run.request, "input"), "input", in_shape);
  const nn::GeometricTensor<double> out = module.forward(nn::GeometricTensor<double>(module.in_type(), input));
  const ItemShape out_shape = item_shape_of(out.data, 2);
  json reply{{"output", encode_items(out.data, out_shape)}};
  if (run.with_grad) {
    module.zero_grad();
    const Array grad = decode_batch(field(run.request, "grad_output"), "grad_output", out_shape);
    if (grad.shape()[0] != out.data.shape()[0]) {
      throw ShapeError("layer", "grad_output must have one point per input point", grad.shape()[0]);
    }
    reply["grad_input"] = encode_items(module.backward(nn::GeometricTensor<double>(out.type, grad)).data, in_shape);
  } else {
    module.discard_saved();
  }
  return reply;
}

nn::LieBatchNormOptions lie_options(const json& options) {
  require_known_keys(options, "options",
                     {"eps", "momentum", "mean", "karcher_steps", "tolerance", "max_iterations", "detach"});
  nn::LieBatchNormOptions o;
  o.eps = number_or(options, "eps", o.eps);
  o.momentum = number_or(options, "momentum", o.momentum);
  const std::string mean = word_or(options, "mean", "converged");
  if (mean == "reference") {
    o.mean_mode = LieMeanMode::kReference;
  } else if (mean != "converged") {
    throw RequestError("options.mean must be \"converged\" or \"reference\", got \"" + mean + "\"");
  }
  o.karcher_steps = integer_or(options, "karcher_steps", o.karcher_steps);
  o.tolerance = number_or(options, "tolerance", o.tolerance);
  o.max_iterations = integer_or(options, "max_iterations", o.max_iterations);
  const json& detach = field(options, "detach");
  if (!detach.is_null() && !detach.is_boolean()) throw RequestError("options.detach must be true or false");
  o.detach_statistics = detach.is_boolean() && detach.get<bool>();
  return o;
}

// The state both normalizations share (bias, scale, running statistics): read, run, written back.
template <class Layer>
bool normalizes_variance(const Layer& layer) {
  return layer.options().normalize_variance;
}
bool normalizes_variance(const nn::GbwBatchNorm<double>& layer) {
  return layer.options().batch_norm.normalize_variance;
}

template <class Layer>
json run_normalization(Layer& layer, const Run& run, const ItemShape& shape) {
  const json state = field(run.request, "state").is_null() ? json::object() : field(run.request, "state");
  require_known_keys(state, "state", {"bias", "scale", "variance", "running_mean", "running_variance"});
  if (state.contains("bias")) {
    Array bias = decode_channel_point(state["bias"], "state.bias", shape);
    layer.in_type().manifold().template space<double>().check_points(bias);
    layer.bias().value = std::move(bias);
  }
  const bool scaled = normalizes_variance(layer);
  if (state.contains("scale") && state.contains("variance")) {
    throw RequestError("state: give \"scale\" (s) or \"variance\" (s²), not both");
  }
  if ((state.contains("scale") || state.contains("variance")) && !scaled) {
    throw RequestError("state: this layer does not normalise the variance, so it has no scale");
  }
  if (state.contains("scale")) layer.scale().value = Array({number_or(state, "scale", 1)});
  if (state.contains("variance")) {
    const double v = number_or(state, "variance", 1);
    if (!(v >= 0) || !std::isfinite(v)) throw DomainError("layer", "state.variance must be finite and >= 0", v);
    layer.scale().value = Array({std::sqrt(v)});
  }
  if (!std::isfinite(layer.scale().value(0))) {
    throw DomainError("layer", "state.scale must be finite", layer.scale().value(0));
  }
  Array running_mean = layer.running_mean();
  Array running_variance = layer.running_variance();
  if (state.contains("running_mean")) {
    running_mean = decode_channel_point(state["running_mean"], "state.running_mean", shape);
  }
  if (state.contains("running_variance")) running_variance = Array({number_or(state, "running_variance", 1)});
  layer.set_running_statistics(std::move(running_mean), std::move(running_variance));

  json reply = run_module(layer, run, shape);
  if (run.training) {
    reply["batch_mean"] = encode_item(layer.batch_mean(), 0, shape);
    reply["batch_variance"] = layer.batch_variance()(0);
  }
  reply["state"] = json{{"bias", encode_item(layer.bias().value, 0, shape)},
                        {"running_mean", encode_item(layer.running_mean(), 0, shape)},
                        {"running_variance", layer.running_variance()(0)}};
  if (scaled) {
    const double s = layer.scale().value(0);
    reply["state"]["scale"] = s;
    reply["state"]["variance"] = s * s;
  }
  if (run.with_grad) {
    reply["grad_state"] = json{{"bias", encode_item(layer.bias().grad, 0, shape)}};
    if (scaled) reply["grad_state"]["scale"] = layer.scale().grad(0);
  }
  return reply;
}

template <class Structure>
json run_lie_bn(Structure structure, nn::TensorType type, const Run& run, int n) {
  const json options = field(run.request, "options").is_null() ? json::object() : field(run.request, "options");
  nn::LieBatchNorm<Structure> layer(std::move(structure), std::move(type), lie_options(options));
  json reply = run_normalization(layer, run, {static_cast<std::size_t>(n), static_cast<std::size_t>(n)});
  if (run.training) reply["karcher_iterations"] = layer.mean_iterations()[0];
  return reply;
}

json lie_bn(const Run& run, const std::string& space, const json& params) {
  const int n = integer_or(params, "n", 0);
  if (space == "so") {
    require_known_keys(params, "params", {"n"});
    return run_lie_bn(SoNormalization<double>(n), nn::rotation_features(n, 1), run, n);
  }
  if (space != "spd") throw RequestError("liebn runs on \"spd\" or \"so\", got \"" + space + "\"");
  require_known_keys(params, "params", {"n", "metric", "theta", "alpha", "beta"});
  const std::string metric = word_or(params, "metric", "AIM");
  const double theta = number_or(params, "theta", 1);
  const double alpha = number_or(params, "alpha", 1);
  const double beta = number_or(params, "beta", 0);
  const nn::TensorType type = nn::spd_features(n, 1);
  if (metric == "LEM") {
    if (theta != 1) throw RequestError("params.theta: LEM has no power deformation (LieBN deforms AIM and LCM)");
    return run_lie_bn(SpdLogEuclideanNormalization<double>(n, alpha, beta), type, run, n);
  }
  if (metric == "LCM") {
    if (alpha != 1 || beta != 0) throw RequestError("params.alpha/beta: LCM has no (α, β) inner product");
    return run_lie_bn(SpdLogCholeskyNormalization<double>(n, theta), type, run, n);
  }
  if (metric == "AIM") return run_lie_bn(SpdAffineInvariantNormalization<double>(n, theta, alpha, beta), type, run, n);
  throw RequestError("params.metric must be \"LEM\", \"LCM\" or \"AIM\", got \"" + metric + "\"");
}

nn::BatchNormOptions gyro_options(const json& options, bool normalize_variance) {
  nn::BatchNormOptions o = lie_options(options);
  o.normalize_variance = normalize_variance;
  return o;
}

// The transport-based Riemannian BN at the space's identity/origin.
template <template <class> class Geometry, class... Args>
json run_rbn(const Run& run, const std::string& name, const ItemShape& shape, bool normalize_variance,
             const typename Geometry<double>::Point& origin, const Args&... args) {
  const json options = field(run.request, "options").is_null() ? json::object() : field(run.request, "options");
  const nn::TensorType type(nn::Base::kNone, nn::ManifoldFiber::of<Geometry>(1, name, args...));
  nn::RiemannianBatchNorm<Geometry<double>> layer(
      nn::TransportCentring<Geometry<double>>(Geometry<double>(args...), origin), type,
      gyro_options(options, normalize_variance));
  return run_normalization(layer, run, shape);
}

// GyroBN (at the gyro identity).
template <template <class> class Geometry, class... Args>
json run_gyrobn(const Run& run, const std::string& name, const ItemShape& shape, bool normalize_variance,
                const Args&... args) {
  const json options = field(run.request, "options").is_null() ? json::object() : field(run.request, "options");
  const nn::TensorType type(nn::Base::kNone, nn::ManifoldFiber::of<Geometry>(1, name, args...));
  nn::GyroBatchNorm<Geometry<double>> layer(Geometry<double>(args...), type, gyro_options(options, normalize_variance));
  return run_normalization(layer, run, shape);
}

// Either, on a space that has both (each instantiation must be one libgyre provides).
template <template <class> class Geometry, class... Args>
json run_manifold_bn(const Run& run, bool transport, const std::string& name, const ItemShape& shape,
                     bool normalize_variance, const typename Geometry<double>::Point& origin, const Args&... args) {
  if (transport) return run_rbn<Geometry>(run, name, shape, normalize_variance, origin, args...);
  return run_gyrobn<Geometry>(run, name, shape, normalize_variance, args...);
}

// gyrobn, rbn and spdnet_bn (transport: the Riemannian BN; normalize_variance false: SPDNetBN).
json manifold_bn(const Run& run, const std::string& layer, const std::string& space, const json& params, bool transport,
                 bool normalize_variance) {
  const int n = integer_or(params, "n", 0);
  const auto un = static_cast<std::size_t>(n);
  if (space == "grassmann") {
    require_known_keys(params, "params", {"n", "p"});
    const int p = integer_or(params, "p", 0);
    (void)nn::grassmann_features(n, p, 1);  // validates 1 ≤ p < n
    return run_manifold_bn<Grassmann>(run, transport, "Gr", {un, static_cast<std::size_t>(p)}, normalize_variance,
                                      Grassmann<double>(n, p).gyro_identity(), n, p);
  }
  if (space == "ball" || space == "stereographic") {
    require_known_keys(params, "params", {"n", "kappa"});
    const double kappa = space == "ball" ? number_or(params, "kappa", -1.0) : number_or(params, "kappa", 0.0);
    if (space == "ball" && !(kappa < 0)) throw DomainError("layer", "the ball needs kappa < 0", kappa);
    if (!(n >= 1)) throw DomainError("layer", "params.n must be >= 1", n);
    return run_manifold_bn<Stereographic>(run, transport, "stereographic", {un}, normalize_variance,
                                          Vector<double>::Zero(n), n, kappa);
  }
  if (space == "hyperboloid") {
    require_known_keys(params, "params", {"n"});
    return run_manifold_bn<Hyperboloid>(run, transport, "hyperboloid", {un + 1}, normalize_variance,
                                        Hyperboloid<double>(n).origin(), n);
  }
  if (space == "correlation") {
    require_known_keys(params, "params", {"n"});
    return run_manifold_bn<Correlation>(run, transport, "correlation", {un, un}, normalize_variance,
                                        Correlation<double>(n).gyro_identity(), n);
  }
  if (space != "spd") {
    throw RequestError(layer +
                       " runs on \"grassmann\", \"ball\", \"stereographic\", \"hyperboloid\", \"correlation\" or "
                       "\"spd\", got \"" +
                       space + "\"");
  }
  require_known_keys(params, "params", {"n", "metric"});
  const std::string metric = word_or(params, "metric", "AIM");
  const ItemShape shape = {un, un};
  if (!(n >= 1)) throw DomainError("layer", "params.n must be >= 1", n);
  const Matrix<double> identity = Matrix<double>::Identity(n, n);
  if (metric == "AIM")
    return run_manifold_bn<SpdAffineInvariant>(run, transport, "SPD", shape, normalize_variance, identity, n);
  if (!normalize_variance) throw RequestError("spdnet_bn is defined under the affine-invariant metric (AIM)");
  if (transport) {
    if (metric == "BWM") return run_rbn<SpdBuresWasserstein>(run, "SPD", shape, true, identity, n);
    throw RequestError("rbn on spd runs under \"AIM\" or \"BWM\", got \"" + metric + "\"");
  }
  if (metric == "LEM") return run_gyrobn<SpdLogEuclidean>(run, "SPD", shape, true, n);
  if (metric == "LCM") return run_gyrobn<SpdLogCholesky>(run, "SPD", shape, true, n);
  throw RequestError("params.metric must be \"LEM\", \"LCM\" or \"AIM\", got \"" + metric + "\"");
}

// GBW-RBN on SPD: params n, theta, learn_metric and M (the metric's matrix, as gyre geom's
// generalized_bures_wasserstein; default I). The reply's state and grad_state carry M too.
json gbw_rbn(const Run& run, const std::string& space, const json& params) {
  if (space != "spd") throw RequestError("gbw_rbn runs on \"spd\", got \"" + space + "\"");
  require_known_keys(params, "params", {"n", "theta", "learn_metric", "M"});
  const int n = integer_or(params, "n", 0);
  if (!(n >= 1)) throw DomainError("layer", "params.n must be >= 1", n);
  const json options = field(run.request, "options").is_null() ? json::object() : field(run.request, "options");
  nn::GbwBatchNormOptions o;
  o.batch_norm = gyro_options(options, true);
  o.theta = number_or(params, "theta", 1);
  const json& learn = field(params, "learn_metric");
  if (!learn.is_null() && !learn.is_boolean()) throw RequestError("params.learn_metric must be true or false");
  o.learn_metric = !learn.is_boolean() || learn.get<bool>();
  nn::GbwBatchNorm<double> layer(nn::spd_features(n, 1), o);
  const ItemShape shape = {static_cast<std::size_t>(n), static_cast<std::size_t>(n)};
  if (params.contains("M")) {
    Array metric = decode_channel_point(params["M"], "params.M", shape);
    layer.in_type().manifold().space<double>().check_points(metric);
    layer.metric().value = std::move(metric);
  }
  json reply = run_normalization(layer, run, shape);
  reply["state"]["M"] = encode_item(layer.metric().value, 0, shape);
  if (run.with_grad && o.learn_metric) reply["grad_state"]["M"] = encode_item(layer.metric().grad, 0, shape);
  return reply;
}

json eigenvalue_layer(const Run& run, const std::string& layer, const json& params) {
  require_known_keys(params, "params", {"n", "eps"});
  const int n = integer_or(params, "n", 0);
  if (layer == "reeig") {
    nn::ReEig<double> module(n, 1, number_or(params, "eps", 1e-4));
    return run_module(module, run, {static_cast<std::size_t>(n), static_cast<std::size_t>(n)});
  }
  nn::LogEig<double> module(n, 1);
  return run_module(module, run, {static_cast<std::size_t>(n), static_cast<std::size_t>(n)});
}

json bimap(const Run& run, const json& params) {
  require_known_keys(params, "params", {"n", "n_out"});
  const int n = integer_or(params, "n", 0);
  const int n_out = integer_or(params, "n_out", 0);
  nn::BiMap<double> module(n, n_out);
  const json state = field(run.request, "state").is_null() ? json::object() : field(run.request, "state");
  require_known_keys(state, "state", {"weight"});
  if (state.contains("weight")) {
    Array w = decode_channel_point(state["weight"], "state.weight",
                                   {static_cast<std::size_t>(n), static_cast<std::size_t>(n_out)});
    w.reshape({1, 1, static_cast<std::size_t>(n), static_cast<std::size_t>(n_out)});
    module.weight().space->check_points(w);
    module.weight().value = std::move(w);
  }
  json reply = run_module(module, run, {static_cast<std::size_t>(n), static_cast<std::size_t>(n)});
  const ItemShape w_shape = {static_cast<std::size_t>(n), static_cast<std::size_t>(n_out)};
  reply["state"] = json{{"weight", encode_item(module.weight().value, 0, w_shape)}};
  if (run.with_grad) reply["grad_state"] = json{{"weight", encode_item(module.weight().grad, 0, w_shape)}};
  return reply;
}

json answer_parsed(const json& request) {
  if (request.is_object() && request.value("layer", std::string()) == "group_downsample") {
    return answer_group_downsample(request);
  }
  if (request.is_object() && request.value("layer", std::string()) == "frame") return answer_frame(request);
  if (request.is_object() && request.value("layer", std::string()) == "canonicalize") {
    return answer_canonicalize(request);
  }
  require_known_keys(request, "request",
                     {"layer", "space", "params", "options", "state", "mode", "input", "grad_output"});
  const std::string layer = word_or(request, "layer", "");
  if (layer.empty())
    throw RequestError(
        "missing \"layer\" (liebn, gyrobn, rbn, gbw_rbn, spdnet_bn, reeig, logeig, bimap, group_downsample, frame or "
        "canonicalize)");
  const std::string mode = word_or(request, "mode", "train");
  if (mode != "train" && mode != "eval")
    throw RequestError("\"mode\" must be \"train\" or \"eval\", got \"" + mode + "\"");
  if (!request.contains("input")) throw RequestError("missing \"input\" (a list of points)");
  const Run run{request, mode == "train", request.contains("grad_output")};
  const json params = field(request, "params").is_null() ? json::object() : field(request, "params");
  const std::string space = word_or(request, "space", "spd");
  if (layer == "liebn") return lie_bn(run, space, params);
  if (layer == "gyrobn") return manifold_bn(run, layer, space, params, false, true);
  if (layer == "rbn") return manifold_bn(run, layer, space, params, true, true);
  if (layer == "gbw_rbn") return gbw_rbn(run, space, params);
  if (layer == "spdnet_bn") {
    if (space != "spd") throw RequestError("spdnet_bn runs on \"spd\", got \"" + space + "\"");
    return manifold_bn(run, layer, space, params, false, false);
  }
  if (space != "spd") throw RequestError("layer \"" + layer + "\" runs on \"spd\", got \"" + space + "\"");
  if (request.contains("options")) throw RequestError("layer \"" + layer + "\" takes no options");
  if (layer == "reeig" || layer == "logeig") {
    if (request.contains("state")) throw RequestError("layer \"" + layer + "\" has no state");
    return eigenvalue_layer(run, layer, params);
  }
  if (layer == "bimap") return bimap(run, params);
  throw RequestError("unknown layer \"" + layer +
                     "\" (liebn, gyrobn, rbn, gbw_rbn, spdnet_bn, reeig, logeig, bimap, "
                     "group_downsample, frame, canonicalize)");
}

}  // namespace

json answer_layer(const std::string& line) {
  return reply_or_error([&] { return answer_parsed(json::parse(line)); });
}

void run_layer(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out << answer_layer(line).dump() << std::endl;  // endl: flush each reply for pipes
  }
}

}  // namespace gyre::tools
